/**
 * Child process: Fastify with nothing else: `/bare/:bytes` answers a constant JSON body of
 * exactly that many bytes, for GET and POST. Reports its port over IPC.
 */
import Fastify from 'fastify';

const bodies = new Map<number, string>();
function body(bytes: number): string {
  let b = bodies.get(bytes);
  if (!b) {
    // Valid JSON of the exact size: {"x":"aaa…"}
    b = `{"x":"${'a'.repeat(Math.max(0, bytes - 8))}"}`;
    bodies.set(bytes, b);
  }
  return b;
}

const app = Fastify({ logger: false });
const handler = async (request: { params: unknown }, reply: { type(t: string): unknown }) => {
  reply.type('application/json; charset=utf-8');
  return body(Number((request.params as { bytes: string }).bytes));
};
app.get('/bare/:bytes', handler);
app.post('/bare/:bytes', handler);
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as { port: number }).port });
// CPU time answers "how much work per request" even when other processes share the cores.
process.on('message', (m) => {
  if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.on('SIGTERM', async () => {
  await app.close();
  process.exit(0);
});
