// A TCP relay between the client and the emulator that counts the bytes each way: what waiting
// transfers, measured on the wire (headers included) without touching the client or the emulator.
import { createConnection, createServer } from 'node:net';

/** Listens on 127.0.0.1 (port 0) and relays to `target` (an http://host:port URL). */
export async function startByteCounter(target) {
  const { hostname, port } = new URL(target);
  const counts = { up: 0, down: 0 };
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    sockets.add(client).add(upstream);
    client.on('data', (d) => (counts.up += d.length));
    upstream.on('data', (d) => (counts.down += d.length));
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.port = String(server.address().port);
  return {
    url: url.href.replace(/\/$/, ''),
    reset() {
      counts.up = 0;
      counts.down = 0;
    },
    bytes: () => ({ ...counts, total: counts.up + counts.down }),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
