/**
 * A subscriber of the gateway's `orderEvents` over SSE (Accept: text/event-stream on /graphql), as
 * a console holds it: each `next` payload's order event, heartbeats kept apart. `after` (or the
 * `Last-Event-ID` header) resumes after an event id (issue 26).
 */
export async function openOrderFeed(url: string, token: string, opts: { branchId?: number; after?: number | string; lastEventId?: string } = {}) {
  const controller = new AbortController();
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}`,
      ...(opts.lastEventId !== undefined ? { 'last-event-id': opts.lastEventId } : {}),
    },
    body: JSON.stringify({
      query: 'subscription Feed($branchId: Int, $after: ID) { orderEvents(branchId: $branchId, after: $after) { id type orderId branchId brandId at } }',
      variables: { branchId: opts.branchId ?? null, after: opts.after === undefined ? null : String(opts.after) },
    }),
    signal: controller.signal,
  });
  if (!res.headers.get('content-type')?.includes('text/event-stream')) throw new Error(`not a stream: ${res.status} ${await res.text()}`);
  /** Every order event (and feed.reset) received, in order; errors as `{ errors }`. */
  const events: any[] = [];
  let ended = false;
  void readSse(res, (event, data) => {
    if (event !== 'next' || !data) return;
    const message = JSON.parse(data);
    if (message.errors) events.push({ errors: message.errors });
    else if (message.data.orderEvents.type !== 'feed.heartbeat') events.push(message.data.orderEvents);
  }).then(() => { ended = true; });
  return {
    events,
    get ended() { return ended; },
    /** Waits until `check` holds of the events so far (or throws after `timeoutMs`). */
    async until(check: (events: any[]) => boolean, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!check(events)) {
        if (Date.now() > deadline) throw new Error(`feed: not in time; got ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    /** The id of the last order event received. */
    lastId: () => [...events].reverse().find((e) => e.id != null)?.id as string | undefined,
    close: () => controller.abort(),
  };
}

/** Reads an SSE response to its end, calling `onBlock` with each block's `event:` and joined `data:` lines; resolves when it ends or fails. */
export async function readSse(res: Response, onBlock: (event: string | undefined, data: string) => void) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        onBlock(/^event: (.*)$/m.exec(block)?.[1], block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n'));
      }
    }
  } catch { /* aborted, or the server went away */ }
}
