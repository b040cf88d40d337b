/**
 * A loopback TCP proxy for the benchmarks: it forwards one connection's bytes both ways, each chunk
 * held for `delayMs` (a one-way delay, as a link between two machines adds), and counts the bytes
 * each way at the TCP level, so the figures include libp2p's framing (Noise, yamux, multistream)
 * and not only the game's frames.
 */
import { type Server, type Socket, createConnection, createServer } from 'node:net'

export interface Link {
  /** The port to dial instead of the target's. */
  readonly port: number
  /** Bytes forwarded so far, each way (client to target, target to client). */
  readonly bytes: { up: number; down: number }
  close(): Promise<void>
}

/**
 * Forwards every connection made to the returned port to `targetPort` on loopback. Chunks keep
 * their order: each is written `delayMs` after it arrived, and timers of one duration fire in order.
 */
export async function delayLink(targetPort: number, delayMs: number): Promise<Link> {
  const bytes = { up: 0, down: 0 }
  const sockets = new Set<Socket>()
  const pipe = (from: Socket, to: Socket, count: (n: number) => void): void => {
    from.on('data', (chunk: Buffer) => {
      count(chunk.length)
      if (delayMs === 0) to.write(chunk)
      else setTimeout(() => to.write(chunk), delayMs)
    })
    from.on('end', () => setTimeout(() => to.end(), delayMs))
    from.on('error', () => to.destroy())
  }
  const server: Server = createServer((client) => {
    client.setNoDelay(true)
    const target = createConnection({ host: '127.0.0.1', port: targetPort })
    target.setNoDelay(true)
    for (const s of [client, target]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
    }
    pipe(client, target, (n) => (bytes.up += n))
    pipe(target, client, (n) => (bytes.down += n))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the bench link has no port')
  return {
    port: address.port,
    bytes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => {
          resolve()
        })
      }),
  }
}

/** The same multiaddr with its TCP port replaced (to dial a link instead of the node itself). */
export function viaPort(addr: string, port: number): string {
  return addr.replace(/\/tcp\/\d+/, `/tcp/${port}`)
}
