/** JsonBytes: the bytes of the string form (`JSON.stringify`, UTF-8) whatever the characters, across growth. */
import { describe, expect, it } from "vitest"
import { JsonBytes } from "../../src/identity/JsonBytes.js"

const decode = (out: JsonBytes) => new TextDecoder().decode(out.view())
const utf8 = (text: string) => new TextEncoder().encode(text)

describe("JsonBytes", () => {
  const strings = [
    "", "bench", "say \"hi\"", "back\\slash", "tab\there", "nul\u0000", "del\u007f", "é", "naïve-ключ", "emoji 😀",
    "lone \ud800 surrogate", "trailing \udc00", "line\u2028sep", "</script>", "x".repeat(5000)
  ]

  it("appends JSON.stringify's bytes for every kind of string, null and integers", () => {
    const out = new JsonBytes(8)
    let expected = ""
    for (const s of strings) {
      out.string(s)
      out.text(",")
      expected += JSON.stringify(s) + ","
    }
    out.string(null)
    expected += "null"
    for (const n of [0, 7, 10, 99, 2048, 1_000_000, Number.MAX_SAFE_INTEGER]) {
      out.text(" ")
      out.integer(n)
      expected += " " + String(n)
    }
    out.text(" tail ü ✓\n")
    expected += " tail ü ✓\n"
    expect(out.view()).toEqual(utf8(expected))
    expect(decode(out)).toBe(expected)
  })

  it("reset keeps nothing", () => {
    const out = new JsonBytes(4)
    out.text("something long enough to grow")
    out.reset()
    out.string("a")
    expect(decode(out)).toBe("\"a\"")
  })
})
