export * from './push';
export * from './pushLoop';
