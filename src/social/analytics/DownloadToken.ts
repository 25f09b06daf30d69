/**
 * Export download tokens (our extension of spec §2.17 `downloadToken`):
 * `<exportId>.<base64url HMAC-SHA256(exportId)>` with the `analyticsDownload` key
 * (derived from `APP_SECRET`). Nothing secret is stored; the export's state and
 * expiry decide whether the file is served.
 */
import { createHmac, timingSafeEqual } from "node:crypto"

const signature = (key: Buffer, exportId: string) => createHmac("sha256", key).update(exportId).digest()

/** The download token of an export. */
export const downloadTokenOf = (key: Buffer, exportId: string): string =>
  `${exportId}.${signature(key, exportId).toString("base64url")}`

/** The export id a token names, or null when the token is not one of ours. */
export const exportIdOfDownloadToken = (key: Buffer, token: string): string | null => {
  const dot = token.indexOf(".")
  if (dot <= 0) return null
  const exportId = token.slice(0, dot)
  const given = Buffer.from(token.slice(dot + 1), "base64url")
  const expected = signature(key, exportId)
  return given.length === expected.length && timingSafeEqual(given, expected) ? exportId : null
}
