import { startTestServer } from './tests/support/server';
const s = await startTestServer({ gateway: true });
const token = await s.api.login('branchuser');
const ctl = new AbortController();
const res = await fetch(`${s.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: 'subscription { orderEvents { type orderId } }' }), signal: ctl.signal });
console.log(res.status, [...res.headers]);
const r = res.body!.getReader();
setTimeout(() => s.events.publish({ type: 'order.created', orderId: 1, branchId: 1, brandId: 7 }), 300);
setTimeout(() => { ctl.abort(); }, 1500);
try { for (;;) { const { value, done } = await r.read(); if (done) break; console.log(JSON.stringify(new TextDecoder().decode(value))); } } catch (e) { console.log('end', (e as Error).message); }
const res2 = await fetch(`${s.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ query: 'subscription { orderEvents { type orderId } }' }) });
console.log(res2.status, await res2.text());
await s.close();
