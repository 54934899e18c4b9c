/**
 * Moves the bytes into a new ArrayBuffer that nothing holds: the young generation's sweep frees it
 * at the next scavenge, where a wrapper promoted while its bytes were in use would keep them until a
 * major collection. `bytes` must own its whole ArrayBuffer (no pool slab, no chunk of Node's); it
 * reads as empty after.
 */
export function giveBack(bytes: Buffer): void {
  if (bytes.buffer.byteLength === 0) return;
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
}

/** The text's UTF-8 in a Buffer of its own, which `giveBack` may take (`Buffer.from` may use the shared pool). */
export function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text, 0, 'utf8');
  return bytes;
}
