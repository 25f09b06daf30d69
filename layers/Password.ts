/**
 * Password hashing with scrypt (memory-hard KDF, RFC 7914) from Node's OpenSSL-backed
 * `crypto`; only the PHC-style encoding is ours:
 * `scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt b64>$<hash b64>`.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { Effect } from "effect"

const params = { ln: 15, r: 8, p: 1 } // N = 32768: 32 MiB and ~100 ms per hash
const keyLength = 32

const derive = (password: string, salt: Buffer, ln: number, r: number, p: number) =>
  Effect.async<Buffer, Error>((resume) => {
    scrypt(password.normalize("NFC"), salt, keyLength, { N: 2 ** ln, r, p, maxmem: 256 * 2 ** ln * r + 1024 * 1024 }, (err, key) =>
      resume(err ? Effect.fail(err) : Effect.succeed(key)))
  })

/** Hashes a password with a fresh 16-byte salt. Dies only on an OpenSSL failure. */
export const hashPassword = (password: string): Effect.Effect<string> =>
  Effect.gen(function*() {
    const salt = randomBytes(16)
    const hash = yield* Effect.orDie(derive(password, salt, params.ln, params.r, params.p))
    return `scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${salt.toString("base64")}$${hash.toString("base64")}`
  })

const Encoded = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/

/** A hash of no password: verifying against it costs the same as a real one (no user-existence timing signal). */
export const DummyHash =
  "scrypt$ln=15,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="

/** True when `password` matches `encoded`, compared in constant time. Malformed hashes never match. */
export const verifyPassword = (password: string, encoded: string): Effect.Effect<boolean> =>
  Effect.gen(function*() {
    const m = Encoded.exec(encoded)
    if (m === null) return false
    const expected = Buffer.from(m[5]!, "base64")
    const actual = yield* Effect.orDie(derive(password, Buffer.from(m[4]!, "base64"), Number(m[1]), Number(m[2]), Number(m[3])))
    return expected.length === actual.length && timingSafeEqual(expected, actual)
  })
