/**
 * Contract types of spec §2.1 and §2.2 (schema/common.ts, schema/envelope.ts) as
 * pure unit tests, plus a round-trip property over a whole response schema.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck, Schema } from "effect"
import { DateTimeZ, IsoDate, StrictStruct, Units, Uuid, Version } from "../../schema/common.js"
import { Meta } from "../../schema/envelope.js"
import { ServiceOffer } from "../../src/services/Schemas.js"

const accepts = <A, I>(schema: Schema.Schema<A, I>, input: unknown) =>
  Either.isRight(Schema.decodeUnknownEither(schema)(input))
const uuid = (version: string, variant: string) => `0190a1b2-c3d4-${version}abc-${variant}def-0123456789ab`

describe("Uuid (spec §2.1)", () => {
  it("accepts versions 1-8 with each standard variant (8, 9, a, b)", () => {
    for (const version of ["1", "2", "3", "4", "5", "6", "7", "8"]) {
      for (const variant of ["8", "9", "a", "b", "A", "B"]) {
        const value = uuid(version, variant)
        expect(Schema.decodeUnknownSync(Uuid)(value), value).toBe(value)
      }
    }
  })

  it("accepts the nil UUID and the all-f (max) UUID in either case", () => {
    expect(accepts(Uuid, "00000000-0000-0000-0000-000000000000")).toBe(true)
    expect(accepts(Uuid, "ffffffff-ffff-ffff-ffff-ffffffffffff")).toBe(true)
    expect(accepts(Uuid, "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")).toBe(true)
  })

  it("accepts uppercase hex digits", () => {
    expect(accepts(Uuid, "0190A1B2-C3D4-7ABC-8DEF-0123456789AB")).toBe(true)
  })

  it("rejects version 0 and 9 and non-standard variants", () => {
    expect(accepts(Uuid, uuid("0", "8"))).toBe(false)
    expect(accepts(Uuid, uuid("9", "8"))).toBe(false)
    expect(accepts(Uuid, uuid("f", "8"))).toBe(false)
    for (const variant of ["0", "7", "c", "C", "d", "e", "f"]) {
      expect(accepts(Uuid, uuid("7", variant)), variant).toBe(false)
    }
  })

  it("rejects wrong lengths, missing dashes, non-hex digits and non-strings", () => {
    const good = uuid("7", "8")
    expect(accepts(Uuid, good.slice(0, -1))).toBe(false)
    expect(accepts(Uuid, `${good}0`)).toBe(false)
    expect(accepts(Uuid, ` ${good}`)).toBe(false)
    expect(accepts(Uuid, good.replace(/-/g, ""))).toBe(false)
    expect(accepts(Uuid, `{${good}}`)).toBe(false)
    expect(accepts(Uuid, good.replace("a", "g"))).toBe(false)
    expect(accepts(Uuid, "00000000-0000-0000-0000-00000000000")).toBe(false)
    expect(accepts(Uuid, "")).toBe(false)
    expect(accepts(Uuid, 7)).toBe(false)
  })
})

describe("DateTimeZ (spec §2.1 date-time)", () => {
  it("decodes UTC timestamps ending in Z, with or without fractional seconds", () => {
    expect(Schema.decodeUnknownSync(DateTimeZ)("2026-01-01T00:00:00Z")).toEqual(new Date(Date.UTC(2026, 0, 1)))
    expect(Schema.decodeUnknownSync(DateTimeZ)("2026-01-01T00:00:00.5Z").getTime()).toBe(Date.UTC(2026, 0, 1, 0, 0, 0, 500))
    expect(Schema.decodeUnknownSync(DateTimeZ)("2026-03-04T05:06:07.123Z").toISOString()).toBe("2026-03-04T05:06:07.123Z")
    expect(accepts(DateTimeZ, "2026-03-04T05:06:07.123456Z")).toBe(true)
  })

  it("rejects offsets other than Z, date-only values, lowercase z and garbage", () => {
    for (
      const input of [
        "2026-01-01T00:00:00+00:00",
        "2026-01-01T00:00:00-05:00",
        "2026-01-01T00:00:00",
        "2026-01-01",
        "2026-01-01 00:00:00Z",
        "2026-01-01T00:00:00z",
        "2026-01-01T00:00:00.Z",
        "2026-13-45T99:99:99Z",
        "",
        1767225600000
      ]
    ) {
      expect(accepts(DateTimeZ, input), String(input)).toBe(false)
    }
  })

  it("encodes a Date with toISOString (milliseconds, Z)", () => {
    const date = new Date(Date.UTC(2026, 5, 1, 12, 30, 15, 7))
    expect(Schema.encodeSync(DateTimeZ)(date)).toBe(date.toISOString())
    expect(Schema.encodeSync(DateTimeZ)(date)).toBe("2026-06-01T12:30:15.007Z")
  })

  it("fails (as a parse error, not a crash) to encode an invalid Date", () => {
    expect(Either.isLeft(Schema.encodeEither(DateTimeZ)(new Date(Number.NaN)))).toBe(true)
  })

  it("encodes Dates of years 0000-9999 only (what toISOString writes as YYYY-…Z), and nothing but Dates", () => {
    const min = new Date("0000-01-01T00:00:00.000Z")
    const max = new Date("9999-12-31T23:59:59.999Z")
    expect(Schema.encodeSync(DateTimeZ)(min)).toBe("0000-01-01T00:00:00.000Z")
    expect(Schema.encodeSync(DateTimeZ)(max)).toBe("9999-12-31T23:59:59.999Z")
    expect(Either.isLeft(Schema.encodeEither(DateTimeZ)(new Date(min.getTime() - 1)))).toBe(true)
    expect(Either.isLeft(Schema.encodeEither(DateTimeZ)(new Date(max.getTime() + 1)))).toBe(true)
    expect(Either.isLeft(Schema.encodeUnknownEither(DateTimeZ)("2026-01-01T00:00:00.000Z"))).toBe(true)
    expect(Either.isLeft(Schema.encodeUnknownEither(DateTimeZ)(Date.UTC(2026, 0, 1)))).toBe(true)
  })
})

describe("IsoDate (spec §2.1 date)", () => {
  it("accepts calendar dates YYYY-MM-DD and rejects times, bad months/days and other shapes", () => {
    for (const ok of ["2026-01-01", "2026-12-31", "2024-02-29"]) expect(accepts(IsoDate, ok), ok).toBe(true)
    for (const bad of ["2026-13-01", "2026-00-10", "2026-01-32", "2026-1-1", "2026-01-01T00:00:00Z", "20260101", 20260101]) {
      expect(accepts(IsoDate, bad), String(bad)).toBe(false)
    }
  })
})

describe("Units (spec §2.1 units)", () => {
  const max = "9".repeat(78)

  it("decodes 0, ordinary amounts and 78-digit amounts to bigint", () => {
    expect(Schema.decodeUnknownSync(Units)("0")).toBe(0n)
    expect(Schema.decodeUnknownSync(Units)("123")).toBe(123n)
    expect(Schema.decodeUnknownSync(Units)(max)).toBe(10n ** 78n - 1n)
    expect(Schema.decodeUnknownSync(Units)(`1${"0".repeat(77)}`)).toBe(10n ** 77n)
  })

  it("rejects leading zeros, signs, fractions, exponents, 79 digits and numbers", () => {
    for (const input of ["01", "00", "-1", "+1", "1.0", "1e3", " 1", "1 ", "", "0x10", `1${"0".repeat(78)}`, 123]) {
      expect(accepts(Units, input), String(input)).toBe(false)
    }
  })

  it("encodes bigint back to the decimal string", () => {
    expect(Schema.encodeSync(Units)(0n)).toBe("0")
    expect(Schema.encodeSync(Units)(44_100_000n)).toBe("44100000")
    expect(Schema.encodeSync(Units)(10n ** 78n - 1n)).toBe(max)
  })

  it("refuses to encode amounts that have no wire form (negative, 79 digits)", () => {
    expect(Either.isLeft(Schema.encodeEither(Units)(-1n))).toBe(true)
    expect(Either.isLeft(Schema.encodeEither(Units)(10n ** 78n))).toBe(true)
  })
})

describe("Version (spec §2.1 version)", () => {
  it("accepts 1 through 2^53-1", () => {
    expect(Schema.decodeUnknownSync(Version)(1)).toBe(1)
    expect(Schema.decodeUnknownSync(Version)(42)).toBe(42)
    expect(Schema.decodeUnknownSync(Version)(Number.MAX_SAFE_INTEGER)).toBe(9007199254740991)
  })

  it("rejects 0, negatives, fractions, 2^53, non-numbers", () => {
    for (const input of [0, -1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, "1", null]) {
      expect(accepts(Version, input), String(input)).toBe(false)
    }
  })
})

describe("StrictStruct and Meta (spec §4.1, §2.2)", () => {
  const Body = StrictStruct({ version: Version })

  it("StrictStruct rejects unknown keys", () => {
    expect(Schema.decodeUnknownSync(Body)({ version: 3 })).toEqual({ version: 3 })
    expect(accepts(Body, { version: 3, extra: true })).toBe(false)
    expect(() => Schema.decodeUnknownSync(Body)({ version: 3, extra: true })).toThrow(/extra/)
  })

  it("Meta is closed (the server sends exactly the listed fields) yet a default decode tolerates extra keys", () => {
    const meta = {
      requestId: "0000000b-0000-7000-8000-000000000001",
      schemaVersion: "1.0.0",
      buildVersion: "test",
      generatedAt: "2026-06-01T00:00:00.000Z",
      freshness: { projectedAt: null, sourceWatermark: null }
    }
    const extended = { ...meta, region: "eu-1", trace: { sampled: true } }
    // a typed client (default decode) reading a future server's meta ignores the members it does not know
    const decoded = Schema.decodeUnknownSync(Meta)(extended)
    expect(decoded.generatedAt).toEqual(new Date("2026-06-01T00:00:00.000Z"))
    expect(Object.keys(decoded).sort()).toEqual(Object.keys(meta).sort())
    // the server never sends undeclared members
    expect(() => Schema.decodeUnknownSync(Meta)(extended, { onExcessProperty: "error" })).toThrow(/region/)
    expect(() => Schema.encodeUnknownSync(Meta)({ ...decoded, region: "eu-1" }, { onExcessProperty: "error" })).toThrow(/region/)
    expect(accepts(Meta, { ...meta, requestId: "not-a-uuid" })).toBe(false)
    expect(accepts(Meta, { ...meta, generatedAt: "2026-06-01" })).toBe(false)
  })
})

describe("ServiceOffer (spec §2.5) round trip", () => {
  it("every generated offer encodes to JSON and decodes back to an equal value", () => {
    const encode = Schema.encodeSync(ServiceOffer)
    const decode = Schema.decodeUnknownSync(ServiceOffer, { onExcessProperty: "error" })
    const equivalent = Schema.equivalence(ServiceOffer)
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(ServiceOffer), (offer) => {
        const wire: unknown = JSON.parse(JSON.stringify(encode(offer)))
        const back = decode(wire)
        expect(back).toEqual(offer)
        expect(equivalent(back, offer)).toBe(true)
      }),
      { numRuns: 200 }
    )
  })
})
