/**
 * docs/roles.md shows exactly the role table of schema/roles.ts: one row per permission, in
 * the table's order, with its description and a ✓ under each role holding it.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { Permissions, Roles } from "../../schema/roles.js"

const page = readFileSync(new URL("../../docs/roles.md", import.meta.url), "utf8")

/** The table's rows as cells, header and separator excluded. */
const rows = () => {
  const lines = page.split("\n").filter((line) => line.startsWith("|"))
  const cells = lines.map((line) => line.slice(1, -1).split("|").map((cell) => cell.trim()))
  return { header: cells[0]!, body: cells.slice(2) }
}

describe("docs/roles.md", () => {
  it("has one column per role, most to least privileged", () => {
    expect(rows().header).toEqual(["Permission", "What it allows", ...Roles])
  })

  it("shows exactly the permissions of schema/roles.ts and the roles holding each", () => {
    const expected = Object.entries(Permissions).map(([permission, { description, roles }]) => [
      `\`${permission}\``,
      description,
      ...Roles.map((role) => (roles as ReadonlyArray<string>).includes(role) ? "✓" : "")
    ])
    expect(rows().body).toEqual(expected)
  })
})
