import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A tiny local HTTP server for the payment gateways' fakes (127.0.0.1, a free port). */
export async function listenLocal(handler: (req: IncomingMessage & { body: any; rawBody: string }, res: ServerResponse, url: URL) => Promise<void> | void) {
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let body: any = null;
    const type = String(req.headers['content-type'] ?? '');
    if (raw && type.includes('json')) { try { body = JSON.parse(raw); } catch { body = null; } }
    else if (raw) body = Object.fromEntries(new URLSearchParams(raw));
    try {
      await handler(Object.assign(req, { body, rawBody: raw }), res, new URL(req.url ?? '/', 'http://fake'));
    } catch (err) {
      res.statusCode = 500;
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
};
export const redirect = (res: ServerResponse, to: string) => { res.statusCode = 303; res.setHeader('location', to); res.end(); };
export const withQuery = (url: string, q: Record<string, string>) => `${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams(q)}`;

export const hostedPage = (title: string, amount: string, payAction: string, failAction: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><p class="amount">${amount}</p>
<form method="post" action="${payAction}"><button id="pay">Pay</button></form>
<form method="post" action="${failAction}"><button id="fail">Fail</button></form></body></html>`;

/**
 * Delivers a callback, retrying as the providers do (MyFatoorah V2: up to 5 retries, Tap: its own
 * schedule) while the server cannot be reached or does not answer 2xx.
 */
export async function deliver(url: string, headers: Record<string, string>, body: unknown, opts: { retries: number; delayMs: number }) {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      if (res.status < 300 || res.status === 401 || attempt >= opts.retries) return res.status;
    } catch {
      if (attempt >= opts.retries) return 0;
    }
    await new Promise((r) => setTimeout(r, opts.delayMs));
  }
}
