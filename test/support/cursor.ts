/** The cursor with the character at `at` replaced by another valid base64url character. */
export const tamper = (cursor: string, at: number) => {
  const c = cursor[at]!
  return cursor.slice(0, at) + (c === "A" ? "B" : "A") + cursor.slice(at + 1)
}
