/**
 * Little-endian base-128 varints and length-prefixed byte blocks: primitives of the symbol encoding
 * (symbols/codec.ts) and the index's name indexes, kept here so symbols/ and index/ share them
 * without either importing the other.
 */

export class Writer {
  private bytes = new Uint8Array(256);
  length = 0;

  uint(value: number): void {
    if (this.length + 10 > this.bytes.length) this.grow(10);
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.bytes[this.length++] = v;
  }

  raw(data: Uint8Array): void {
    this.uint(data.length);
    if (this.length + data.length > this.bytes.length) this.grow(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
  }

  finish(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  private grow(need: number): void {
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + need));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
}

export class Reader {
  pos = 0;

  constructor(private readonly bytes: Uint8Array, start = 0) {
    this.pos = start;
  }

  uint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = this.next();
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
  }

  /** Steps over `count` varints without reading their values. */
  skip(count: number): void {
    for (let left = count; left > 0; ) if (this.next() < 0x80) left--;
  }

  /** Damaged bytes end in an error, never in a loop past the end. */
  private next(): number {
    const b = this.bytes[this.pos++];
    if (b === undefined) throw new RangeError('truncated varint');
    return b;
  }

  raw(): Uint8Array {
    const n = this.uint();
    this.pos += n;
    return this.bytes.subarray(this.pos - n, this.pos);
  }
}
