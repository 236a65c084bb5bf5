/**
 * A pure, incremental SHA-256 (FIPS 180-4) over UTF-8 text. `effect` may not import
 * `node:crypto`, and the fact-log digest must be computable in any JavaScript runtime, so the
 * hash is implemented here. The state can be cloned cheaply, which is what lets `FactLog`
 * report the digest of its prefix at any point without rehashing.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** Incremental SHA-256: `update` with text any number of times, `hex()` at any point. */
export class Sha256 {
  private readonly h = new Uint32Array(INITIAL);
  private readonly block = new Uint8Array(64);
  private readonly w = new Uint32Array(64);
  private blockLen = 0;
  /** Total bytes hashed so far (exact below 2^53). */
  private bytes = 0;

  /** Adds the UTF-8 encoding of `text` to the hash. */
  update(text: string): this {
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c < 0x80) {
        this.push(c);
        continue;
      }
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        }
      }
      // Lone surrogates encode as U+FFFD, as TextEncoder does.
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      if (c < 0x800) {
        this.push(0xc0 | (c >> 6));
        this.push(0x80 | (c & 0x3f));
      } else if (c < 0x10000) {
        this.push(0xe0 | (c >> 12));
        this.push(0x80 | ((c >> 6) & 0x3f));
        this.push(0x80 | (c & 0x3f));
      } else {
        this.push(0xf0 | (c >> 18));
        this.push(0x80 | ((c >> 12) & 0x3f));
        this.push(0x80 | ((c >> 6) & 0x3f));
        this.push(0x80 | (c & 0x3f));
      }
    }
    return this;
  }

  /** A copy with the same state, so the original can keep hashing after a digest. */
  clone(): Sha256 {
    const copy = new Sha256();
    copy.h.set(this.h);
    copy.block.set(this.block);
    copy.blockLen = this.blockLen;
    copy.bytes = this.bytes;
    return copy;
  }

  /** The lowercase hex digest of everything hashed so far. Does not change this hasher. */
  hex(): string {
    const fin = this.clone();
    const bitsHi = Math.floor((fin.bytes * 8) / 0x100000000);
    const bitsLo = (fin.bytes * 8) >>> 0;
    fin.push(0x80);
    while (fin.blockLen !== 56) fin.push(0);
    for (const word of [bitsHi, bitsLo]) {
      fin.push((word >>> 24) & 0xff);
      fin.push((word >>> 16) & 0xff);
      fin.push((word >>> 8) & 0xff);
      fin.push(word & 0xff);
    }
    let out = '';
    for (const word of fin.h) out += word.toString(16).padStart(8, '0');
    return out;
  }

  private push(byte: number): void {
    this.block[this.blockLen++] = byte;
    this.bytes++;
    if (this.blockLen === 64) {
      this.compress();
      this.blockLen = 0;
    }
  }

  private compress(): void {
    const w = this.w;
    const b = this.block;
    for (let t = 0; t < 16; t++) {
      const j = t * 4;
      w[t] = ((b[j]! << 24) | (b[j + 1]! << 16) | (b[j + 2]! << 8) | b[j + 3]!) >>> 0;
    }
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15]!;
      const y = w[t - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) >>> 0;
    }
    const h = this.h;
    let a = h[0]!,
      bb = h[1]!,
      c = h[2]!,
      d = h[3]!,
      e = h[4]!,
      f = h[5]!,
      g = h[6]!,
      hh = h[7]!;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[t]! + w[t]!) >>> 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & bb) ^ (a & c) ^ (bb & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = bb;
      bb = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0]! + a) >>> 0;
    h[1] = (h[1]! + bb) >>> 0;
    h[2] = (h[2]! + c) >>> 0;
    h[3] = (h[3]! + d) >>> 0;
    h[4] = (h[4]! + e) >>> 0;
    h[5] = (h[5]! + f) >>> 0;
    h[6] = (h[6]! + g) >>> 0;
    h[7] = (h[7]! + hh) >>> 0;
  }
}

/** Hex SHA-256 of the UTF-8 encoding of `text`. */
export function sha256Hex(text: string): string {
  return new Sha256().update(text).hex();
}
