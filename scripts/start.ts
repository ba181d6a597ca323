/**
 * `npm start`: the build's up-to-date check (scripts/build.ts, which builds whatever changed), then
 * the server (app/main.ts), in one process. Two `tsx` processes paid tsx's own start twice
 * (issue 14: `npm start` to ready, second run).
 */
await import('./build');
await import('../app/main');

export {};
