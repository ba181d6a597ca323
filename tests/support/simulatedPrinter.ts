/**
 * Kitchen printers played by a test: each polls the server over real HTTP as the device does
 * (server/printing/protocols.ts), keeps what it received, and confirms a job or, when told to,
 * never does (a printer that loses power between fetching and printing).
 */
export interface ReceivedJob { jobId: string; contentType: string; body: Buffer }

/** A Star CloudPRNT printer: POST its status, GET the job in a media type offered, DELETE to confirm. */
export function cloudPrntPrinter(url: string) {
  const received: ReceivedJob[] = [];
  const printer = {
    received,
    async poll(extra: Record<string, unknown> = {}) {
      const res = await fetch(url, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: '23 86 00 00 00 00 00 00 00', printerMAC: '00:11:62:00:00:25', statusCode: '200%20OK', printingInProgress: false, ...extra }),
      });
      if (res.status !== 200) throw new Error(`CloudPRNT poll: ${res.status} ${await res.text()}`);
      return await res.json() as { jobReady: boolean; mediaTypes?: string[]; jobToken?: string };
    },
    async fetchJob(type: string, token?: string) {
      const q = new URLSearchParams({ type, mac: '00:11:62:00:00:25', ...(token ? { token } : {}) });
      const res = await fetch(`${url}?${q}`);
      return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
    },
    async confirm(token: string | undefined, code = '200 OK') {
      const q = new URLSearchParams({ code, mac: '00:11:62:00:00:25', ...(token ? { token } : {}) });
      const res = await fetch(`${url}?${q}`, { method: 'DELETE' });
      if (res.status !== 200) throw new Error(`CloudPRNT delete: ${res.status}`);
    },
    /** One round as the device runs it; `confirm: false` fetches and never confirms. Returns the job printed, if any. */
    async round({ confirm = true }: { confirm?: boolean } = {}): Promise<ReceivedJob | null> {
      const answer = await printer.poll();
      if (!answer.jobReady) return null;
      const job = await printer.fetchJob(answer.mediaTypes![0], answer.jobToken);
      if (job.status !== 200) throw new Error(`CloudPRNT get: ${job.status}`);
      const got = { jobId: answer.jobToken!, contentType: job.contentType, body: job.body };
      received.push(got);
      if (confirm) await printer.confirm(answer.jobToken);
      return got;
    },
  };
  return printer;
}

/** An Epson printer with Server Direct Print: GetRequest for ePOS-Print XML, SetResponse with the result. */
export function epsonPrinter(url: string) {
  const received: ReceivedJob[] = [];
  const post = async (form: Record<string, string>) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
  };
  const printer = {
    received,
    getRequest: () => post({ ConnectionType: 'GetRequest', ID: 'kitchen-1', Name: 'TM-m30' }),
    setResponse: (jobId: string, success: boolean, code = success ? '' : 'EPTR_REC_EMPTY') => post({
      ConnectionType: 'SetResponse', ID: 'kitchen-1', Name: 'TM-m30',
      ResponseFile: '<?xml version="1.0" encoding="utf-8"?><PrintResponseInfo Version="2.00"><ePOSPrint><Parameter>'
        + `<devid>local_printer</devid><printjobid>${jobId}</printjobid></Parameter><PrintResponse>`
        + `<response success="${success}" code="${code}" status="251658262" battery="0" xmlns="http://www.epson-pos.com/schemas/2011/03/epos-print"></response>`
        + '</PrintResponse></ePOSPrint></PrintResponseInfo>',
    }),
    async round({ confirm = true }: { confirm?: boolean } = {}): Promise<ReceivedJob | null> {
      const res = await printer.getRequest();
      if (res.status !== 200) throw new Error(`Epson GetRequest: ${res.status} ${res.text}`);
      if (!res.text) return null;
      const jobId = /<printjobid>([^<]+)<\/printjobid>/.exec(res.text)![1];
      const got = { jobId, contentType: res.contentType, body: Buffer.from(res.text) };
      received.push(got);
      if (confirm) await printer.setResponse(jobId, true);
      return got;
    },
  };
  return printer;
}
