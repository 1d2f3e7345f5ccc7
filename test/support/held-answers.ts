// A forwarding HTTP proxy in front of the emulator that holds back the answers to the requests a
// test chooses until the test lets them go. "The creates are still in flight when the database
// stops" then holds by construction, where a latency had to outlast a loaded machine (and made
// every run wait it out).
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AnswerGate {
  /** The API base URL through the proxy. */
  url: string;
  /** Answers the emulator gave that are held back so far. */
  held(): number;
  /** Sends the held answers, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

/** `hold(method, path)`: whether the emulator's answer to this request waits for `release()`. */
export async function holdAnswers(apiUrl: string, hold: (method: string, path: string) => boolean): Promise<AnswerGate> {
  const target = new URL(apiUrl);
  let waiting: Array<() => void> | undefined = [];
  const server = createServer((req, res) => {
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const send = () => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      };
      if (waiting !== undefined && hold(req.method ?? 'GET', req.url ?? '/')) waiting.push(send);
      else send();
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let held = 0;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    held: () => held + (waiting?.length ?? 0),
    release: () => {
      const sends = waiting ?? [];
      held += sends.length;
      waiting = undefined;
      for (const send of sends) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
