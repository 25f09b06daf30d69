/**
 * JSON text appended straight into a reused, growable UTF-8 byte buffer, for output written
 * at hundreds of thousands of records a second (the legacy-ID report, spec §9). Building each
 * record as a string allocates its pieces, the concatenations and a flat copy for the encoder
 * (about 1.5 KB of garbage per 375-byte record: half the batch's allocation); here the common
 * ASCII text is copied byte by byte (measured: ~10% less CPU for the 1M-line batch), long
 * pre-built text (`long`) and the rare non-ASCII rest go through `TextEncoder`, and strings that
 * need escaping through `JSON.stringify`, so the bytes are exactly those of the string form.
 */
const utf8 = new TextEncoder()

export class JsonBytes {
  private bytes: Uint8Array
  /** Bytes appended since the last `reset`. */
  length = 0

  constructor(initialBytes = 1024 * 1024) {
    this.bytes = new Uint8Array(initialBytes)
  }

  /** Empties the buffer (keeps its memory). */
  reset(): void {
    this.length = 0
  }

  /** The bytes appended so far (a view, valid until the next append or reset). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length)
  }

  /** Appends `text` as UTF-8. */
  text(text: string): void {
    this.reserve(text.length)
    const bytes = this.bytes
    let at = this.length
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c >= 0x80) return this.encodeFrom(text, i, at)
      bytes[at++] = c
    }
    this.length = at
  }

  /**
   * Appends `text` as UTF-8 through the native encoder: for long text (hundreds of bytes)
   * that is faster than `text`'s loop, which wins on the short pieces of a record.
   */
  long(text: string): void {
    this.encodeFrom(text, 0, this.length)
  }

  /** Appends `JSON.stringify(value)`. */
  string(value: string | null): void {
    if (value === null) return this.text("null")
    this.reserve(value.length + 2)
    const bytes = this.bytes
    let at = this.length
    bytes[at++] = 0x22
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i)
      // control characters, quote, backslash, DEL and non-ASCII (lone surrogates get escaped): JSON.stringify's own bytes
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return this.text(JSON.stringify(value))
      bytes[at++] = c
    }
    bytes[at++] = 0x22
    this.length = at
  }

  /** Appends a non-negative safe integer in decimal (as `String(n)`). */
  integer(n: number): void {
    let digits = 1
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++
    this.reserve(digits)
    let at = this.length + digits
    this.length = at
    for (let rest = n; at > this.length - digits; rest = Math.floor(rest / 10)) this.bytes[--at] = 0x30 + (rest % 10)
  }

  /** Encodes `text` from index `from` at byte `at` (UTF-8 takes at most 3 bytes per UTF-16 unit). */
  private encodeFrom(text: string, from: number, at: number): void {
    const rest = from === 0 ? text : text.slice(from)
    this.length = at
    this.reserve(3 * rest.length)
    this.length += utf8.encodeInto(rest, this.bytes.subarray(this.length)).written
  }

  /** Room for `extra` more bytes: the buffer doubles as needed. */
  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return
    let size = this.bytes.length * 2
    while (size < this.length + extra) size *= 2
    const grown = new Uint8Array(size)
    grown.set(this.view())
    this.bytes = grown
  }
}
