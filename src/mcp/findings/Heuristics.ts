/**
 * Tool-safety heuristics (docs/findings.md): what an MCP server's tool definitions say that a
 * person granting them should know. Pure functions over the definitions as the server listed
 * them (`tools/list`: `name`, `title`, `description`, `inputSchema`, `outputSchema`,
 * `annotations`). Each finding names its `kind`, its `ruleId` (one rule, one id), a `severity`
 * and its `evidence`: the JSON pointer (RFC 6901) of the string inside the definition, the rule's
 * match (invisible characters written as `U+XXXX`), never the whole text.
 *
 * - INVISIBLE_CHARACTERS, in any string of the definition (keys included):
 *   `invisible.tag-characters` (U+E0000-U+E007F, "ASCII smuggling": CRITICAL),
 *   `invisible.bidi-control` (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069: HIGH),
 *   `invisible.zero-width` (U+180E, U+200B-U+200D, U+2060-U+2064, U+FEFF: HIGH; a joiner
 *   inside an emoji sequence is not counted).
 * - HIDDEN_INSTRUCTIONS, in every string but the tool's `name`:
 *   `hidden.override-instructions` ("ignore previous instructions" and kin: CRITICAL),
 *   `hidden.conceal-from-user` ("do not tell the user", "without informing the user": HIGH),
 *   `hidden.instruction-tags` (`<IMPORTANT>`, `<system>`, `[SYSTEM]`, HTML comments: HIGH),
 *   `hidden.sensitive-files` (SSH keys, `.env`, `/etc/passwd`, MCP client configs, cloud
 *   credentials, wallet seed phrases: HIGH),
 *   `hidden.exfiltration-url` (an http(s) URL next to send/post/upload/forward/… : HIGH),
 *   `hidden.cross-tool-directive` (directions about when or how to use other tools: HIGH).
 * - TOOL_SHADOWING, against the tools of the agent's other MCP connections:
 *   `shadow.name-collision` (the same name, compared without case, `-` and `_`: MEDIUM),
 *   `shadow.cross-server-reference` (a description naming another server's tool: HIGH).
 */

/** A finding's kind. */
export type FindingKind =
  | "TOOL_DEFINITION_CHANGED"
  | "HIDDEN_INSTRUCTIONS"
  | "INVISIBLE_CHARACTERS"
  | "TOOL_SHADOWING"
  | "ENDPOINT_NOT_MCP"

/** How serious a finding is. */
export type FindingSeverity = "LOW" | "MEDIUM" | "HIGH" | "CRITICAL"

/** What a heuristic found in one tool definition. */
export interface ToolFinding {
  readonly kind: FindingKind
  readonly ruleId: string
  readonly severity: FindingSeverity
  /** The tool's name as the server listed it. */
  readonly tool: string
  /** `pointer`: where in the definition; `match`: what the rule matched (at most 120 characters). */
  readonly evidence: { readonly pointer: string; readonly match: string }
}

interface StringAt {
  readonly pointer: string
  readonly text: string
  /** True for an object key (a property name), false for a value. */
  readonly key: boolean
}

const escapePointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1")

/** Every string of `value` (values and keys) with its pointer. */
const stringsOf = (value: unknown, pointer = "", out: Array<StringAt> = [], depth = 0): Array<StringAt> => {
  if (depth > 32) return out
  if (typeof value === "string") out.push({ pointer, text: value, key: false })
  else if (Array.isArray(value)) value.forEach((v, i) => stringsOf(v, `${pointer}/${i}`, out, depth + 1))
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const at = `${pointer}/${escapePointer(k)}`
      out.push({ pointer: at, text: k, key: true })
      stringsOf(v, at, out, depth + 1)
    }
  }
  return out
}

/** A zero-width joiner between two pictographs (an emoji ZWJ sequence). */
const EmojiJoiner = /(\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`

/** The invisible character rules: id, severity, characters. */
export const InvisibleRules = [
  { ruleId: "invisible.tag-characters", severity: "CRITICAL", pattern: /[\u{E0000}-\u{E007F}]/gu },
  { ruleId: "invisible.bidi-control", severity: "HIGH", pattern: /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu },
  { ruleId: "invisible.zero-width", severity: "HIGH", pattern: /[\u180E\u200B-\u200D\u2060-\u2064\uFEFF]/gu }
] as const

/** The hidden-instruction rules: id, severity, pattern (case-insensitive). */
export const InstructionRules = [
  {
    ruleId: "hidden.override-instructions",
    severity: "CRITICAL",
    pattern: /\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}?\b(?:previous|prior|above|earlier|preceding|all|any|other|system|safety)\b[^.\n]{0,30}?\b(?:instructions?|prompts?|rules?|directions?|guidelines?|guardrails?|polic(?:y|ies))\b/i
  },
  {
    ruleId: "hidden.conceal-from-user",
    severity: "HIGH",
    pattern: /\b(?:(?:do not|don't|never|must not|should not)\b[^.\n]{0,30}?\b(?:tell|inform|mention|reveal|show|notify|alert|disclose)\b[^.\n]{0,30}?\b(?:the\s+)?(?:user|human|person)s?\b|without\s+(?:telling|informing|notifying|alerting|asking)\s+(?:the\s+)?(?:user|human)|(?:the\s+)?user\s+(?:must|should)\s+(?:not|never)\s+(?:know|see|notice|be told)|keep\s+(?:this|it)\s+(?:secret|hidden|confidential)\s+from)/i
  },
  {
    ruleId: "hidden.instruction-tags",
    severity: "HIGH",
    pattern: /<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin|assistant|prompt)\s*>|\[\s*(?:system|instructions?|important)\s*\]|<!--/i
  },
  {
    ruleId: "hidden.sensitive-files",
    severity: "HIGH",
    pattern: /~\/\.ssh|\bid_(?:rsa|ed25519|ecdsa)\b|\/etc\/(?:passwd|shadow)|(?:^|[\s"'`(/~])\.env\b|\bmcp\.json\b|claude_desktop_config|\.aws\/credentials|\.npmrc|\.netrc|\b(?:seed|recovery)\s+phrase|\bmnemonic\b|\bprivate[\s_-]?key\b/i
  },
  {
    ruleId: "hidden.exfiltration-url",
    severity: "HIGH",
    pattern: /\b(?:send|post|upload|forward|transmit|submit|exfiltrate|report|leak|copy|bcc|cc)\b[^\n]{0,80}?https?:\/\/[^\s"'<>)]+|https?:\/\/[^\s"'<>)]+[^\n]{0,80}?\b(?:send|post|upload|forward|transmit|submit)\b[^\n]{0,30}?\b(?:data|contents?|files?|keys?|tokens?|conversation|messages?|history|credentials?)\b/i
  },
  {
    ruleId: "hidden.cross-tool-directive",
    severity: "HIGH",
    pattern: /\bbefore\s+(?:using|calling|invoking)\s+this\s+tool\b|\b(?:before|after|when(?:ever)?|instead of)\b[^.\n]{0,40}?\b(?:using|calling|invoking|running|the user (?:calls|uses))\b[^.\n]{0,30}?\b(?:any|every|all|other|another|the)\b[^.\n]{0,20}?\btools?\b|\b(?:always|must|first)\b[^.\n]{0,20}?\b(?:call|use|invoke|run)\b[^.\n]{0,20}?\bthis tool\b[^.\n]{0,30}?\b(?:before|first|instead)\b|\b(?:all|every)\s+(?:e-?mails?|messages?|payments?|transfers?)\s+(?:must|should)\s+(?:be\s+)?(?:sent|forwarded|copied|routed|paid)\s+to\b/i
  }
] as const

const excerpt = (text: string, index: number, length: number) => {
  const match = text.slice(index, index + Math.min(length, 120))
  return match.replace(/\s+/g, " ")
}

/** A definition's name for comparisons: lower case, without `-`, `_`, `.` and spaces. */
const comparable = (name: string) => name.toLowerCase().replace(/[-_.\s]+/g, "")

/** The name of an MCP tool definition, if it has one. */
export const toolName = (tool: unknown): string | undefined => {
  const name = (tool as { readonly name?: unknown } | null)?.name
  return typeof name === "string" ? name : undefined
}

/**
 * The findings of one tool definition `tool` (as listed), given the tool names of the agent's
 * other MCP servers `otherTools` (for shadowing). Deterministic: in rule order, then pointer order.
 */
export const toolFindings = (tool: unknown, otherTools: ReadonlyArray<string> = []): Array<ToolFinding> => {
  const name = toolName(tool)
  if (name === undefined) return []
  const findings: Array<ToolFinding> = []
  const strings = stringsOf(tool)
  for (const rule of InvisibleRules) {
    for (const s of strings) {
      // a zero-width joiner inside an emoji sequence (👩‍💻) is how emoji are written, not hidden text
      const text = s.text.replace(EmojiJoiner, "$1")
      const found = [...new Set(Array.from(text.matchAll(rule.pattern), (m) => codePoint(m[0])))]
      if (found.length > 0) {
        findings.push({ kind: "INVISIBLE_CHARACTERS", ruleId: rule.ruleId, severity: rule.severity, tool: name, evidence: { pointer: s.pointer, match: found.join(" ") } })
      }
    }
  }
  // the prose: every value but the name itself, with invisible characters removed (they must not hide a phrase)
  const prose = strings
    .filter((s) => !s.key && s.pointer !== "/name")
    .map((s) => ({ ...s, text: s.text.replace(/[\u{E0000}-\u{E007F}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u180E\u200B-\u200D\u2060-\u2064\uFEFF]/gu, "") }))
  for (const rule of InstructionRules) {
    for (const s of prose) {
      const m = rule.pattern.exec(s.text)
      if (m !== null) {
        findings.push({ kind: "HIDDEN_INSTRUCTIONS", ruleId: rule.ruleId, severity: rule.severity, tool: name, evidence: { pointer: s.pointer, match: excerpt(s.text, m.index, m[0].length) } })
      }
    }
  }
  const mine = comparable(name)
  const collision = otherTools.find((other) => comparable(other) === mine)
  if (collision !== undefined) {
    findings.push({ kind: "TOOL_SHADOWING", ruleId: "shadow.name-collision", severity: "MEDIUM", tool: name, evidence: { pointer: "/name", match: collision } })
  }
  const others = [...new Set(otherTools)].filter((o) => o.length >= 4 && comparable(o) !== mine)
  for (const s of prose) {
    const named = others.find((o) => new RegExp(`(?<![\\w-])${o.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "i").test(s.text))
    if (named !== undefined) {
      findings.push({ kind: "TOOL_SHADOWING", ruleId: "shadow.cross-server-reference", severity: "HIGH", tool: name, evidence: { pointer: s.pointer, match: named } })
    }
  }
  return findings
}

/** Failure codes of a catalog fetch that mean the endpoint does not speak MCP (`ENDPOINT_NOT_MCP`). */
export const NotMcpCodes: ReadonlySet<string> = new Set(["protocol-error", "http-404", "http-405", "http-406", "http-415"])
