import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH } from './browser';

/**
 * Global setup of the e2e project: one Chromium for all its files (chromium.launchServer), each file
 * connecting to it (tests/support/harness.ts) instead of launching its own. A file's connection
 * closes with the file, and with it every context and page the file opened.
 */
export default async function setup(project: TestProject) {
  if (project.name !== 'e2e') return;
  const server = await chromium.launchServer(CHROMIUM_LAUNCH);
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return async () => { await server.close(); };
}
