import { mountGateway } from '../mesh/inProcess';
import { startServer as startServices, type RunningServer, type StartOptions } from '../server/start';

/**
 * The composition root, above server/ and mesh/: the REST services (server/start.ts) with the
 * GraphQL gateway (mesh/inProcess.ts) mounted on the same port. server/ never imports mesh/;
 * whoever runs the whole product (app/main.ts, the tests' servers, the benches) starts it here.
 */
export function startServer(opts: StartOptions): Promise<RunningServer> {
  return startServices({ mountGateway, ...opts });
}

export type { RunningServer, StartOptions };
