import { createServer } from 'node:net';

/** A port nobody listens on right now on 127.0.0.1 (for servers that cannot take `0`). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
