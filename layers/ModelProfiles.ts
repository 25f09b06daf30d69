/**
 * The model profiles (docs/configuration.md: `MODEL_PROFILES`, `MODEL_PROFILES_FILE`):
 * the language-model providers an agent's runtime configuration may name as its
 * `provider`. Each profile is a provider kind with where to reach it, its API key and
 * the prices of its models:
 *
 * ```json
 * { "openai": { "kind": "openai", "apiKey": "sk-…",
 *               "prices": { "gpt-4.1-mini": { "inputMicroUsdPerMillionTokens": 400000,
 *                                             "outputMicroUsdPerMillionTokens": 1600000 } } },
 *   "local":  { "kind": "openai", "baseUrl": "http://127.0.0.1:8000/v1" },
 *   "claude": { "kind": "anthropic", "apiKey": "sk-ant-…" } }
 * ```
 *
 * `kind` `openai` speaks the OpenAI **Responses** API (`POST {baseUrl}/responses`,
 * what `@effect/ai-openai` 0.41 implements), also to an OpenAI-compatible server
 * (vLLM, Ollama, LM Studio) that serves it; `anthropic` the Anthropic Messages API
 * (`POST {baseUrl}/v1/messages`). The name `deterministic` is reserved for the built-in
 * deterministic runtime (always present, no model). API keys are `Redacted`: no
 * response, error or log line carries them, and a validation message names the
 * profile and the field, never a value.
 */
import { Redacted } from "effect"

/** The name of the built-in deterministic runtime, always a valid `provider`. */
export const DeterministicProvider = "deterministic"

/** A model's prices, in micro-USD per million tokens (integers ≥ 0). */
export interface ModelPrice {
  readonly inputMicroUsdPerMillionTokens: number
  readonly outputMicroUsdPerMillionTokens: number
}

/** One model profile. */
export interface ModelProfile {
  /** The wire API: OpenAI Responses (`openai`) or Anthropic Messages (`anthropic`). */
  readonly kind: "openai" | "anthropic"
  /**
   * Where the API is served; none = the vendor's (`https://api.openai.com/v1`,
   * `https://api.anthropic.com`). An OpenAI base URL ends before `/responses` (e.g.
   * `http://127.0.0.1:8000/v1`), an Anthropic one before `/v1/messages`.
   */
  readonly baseUrl: string | undefined
  /** Sent as `Authorization: Bearer` (openai) or `x-api-key` (anthropic); none = no credential. */
  readonly apiKey: Redacted.Redacted<string> | undefined
  /** Prices by model name; a model not listed has no cost (`costMicroUsd` null). */
  readonly prices: Readonly<Record<string, ModelPrice>>
}

/** The configured profiles by name (`deterministic` is not among them: it is built in). */
export type ModelProfiles = Readonly<Record<string, ModelProfile>>

/** Rule of a profile name. */
export const ProfileNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const isPrice = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0

/**
 * Parses one profiles document (`source` names it in messages: `MODEL_PROFILES` or
 * `MODEL_PROFILES_FILE`). Empty text = no profiles. Returns the profiles, or the rule
 * broken, naming the profile and the field but never repeating a value (the document
 * holds keys).
 */
export const parseModelProfiles = (text: string, source: string): ModelProfiles | string => {
  if (text.trim() === "") return {}
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    // JSON.parse's message quotes the text, which may hold a key
    return `${source} is not valid JSON`
  }
  if (!isRecord(document)) return `${source} must be a JSON object keyed by profile name`
  const out: Record<string, ModelProfile> = {}
  for (const [name, entry] of Object.entries(document)) {
    if (!ProfileNamePattern.test(name)) {
      return `${source}: each profile name must match ${ProfileNamePattern.source}`
    }
    const at = `${source}: profile "${name}"`
    if (name === DeterministicProvider) return `${at}: the name ${DeterministicProvider} is reserved for the built-in runtime`
    if (!isRecord(entry)) return `${at} must be an object {kind, baseUrl?, apiKey?, prices?}`
    for (const key of Object.keys(entry)) {
      if (!["kind", "baseUrl", "apiKey", "prices"].includes(key)) return `${at}: unknown field "${key}"`
    }
    const { apiKey, baseUrl, kind, prices } = entry
    if (kind !== "openai" && kind !== "anthropic") return `${at}: kind must be "openai" or "anthropic"`
    if (baseUrl !== undefined) {
      let url: URL | undefined
      try {
        url = typeof baseUrl === "string" ? new URL(baseUrl) : undefined
      } catch {
        url = undefined
      }
      if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.username !== "" || url.password !== "") {
        return `${at}: baseUrl must be an absolute http or https URL without credentials`
      }
    }
    if (apiKey !== undefined && (typeof apiKey !== "string" || apiKey.length === 0 || apiKey.length > 4096)) {
      return `${at}: apiKey must be a string of 1-4096 characters`
    }
    const priced: Record<string, ModelPrice> = {}
    if (prices !== undefined) {
      if (!isRecord(prices)) return `${at}: prices must be an object keyed by model name`
      for (const [model, price] of Object.entries(prices)) {
        if (
          !isRecord(price) || !isPrice(price["inputMicroUsdPerMillionTokens"]) ||
          !isPrice(price["outputMicroUsdPerMillionTokens"]) || Object.keys(price).length !== 2
        ) {
          return `${at}: prices.${model} must be {inputMicroUsdPerMillionTokens, outputMicroUsdPerMillionTokens}, ` +
            "each a whole number ≥ 0"
        }
        priced[model] = {
          inputMicroUsdPerMillionTokens: price["inputMicroUsdPerMillionTokens"],
          outputMicroUsdPerMillionTokens: price["outputMicroUsdPerMillionTokens"]
        }
      }
    }
    out[name] = {
      kind,
      baseUrl: typeof baseUrl === "string" ? baseUrl.replace(/\/+$/, "") : undefined,
      apiKey: typeof apiKey === "string" ? Redacted.make(apiKey) : undefined,
      prices: priced
    }
  }
  return out
}

/**
 * The profiles of both sources: `MODEL_PROFILES` (the environment) and the file
 * `MODEL_PROFILES_FILE` names (for keys kept out of the environment). A name defined
 * by both is refused. Returns the profiles or the rule broken.
 */
export const mergeModelProfiles = (fromEnv: ModelProfiles, fromFile: ModelProfiles): ModelProfiles | string => {
  for (const name of Object.keys(fromFile)) {
    if (name in fromEnv) return `profile "${name}" is defined by both MODEL_PROFILES and MODEL_PROFILES_FILE`
  }
  return { ...fromEnv, ...fromFile }
}

/** True when `provider` is the built-in runtime or a configured profile. */
export const isKnownProvider = (profiles: ModelProfiles, provider: string): boolean =>
  provider === DeterministicProvider || Object.hasOwn(profiles, provider)

/**
 * The cost of a model call in micro-USD from `price`, rounded up to a whole micro-USD
 * (a cost is never understated); null without a price.
 */
export const costMicroUsd = (
  price: ModelPrice | undefined,
  inputTokens: number,
  outputTokens: number
): bigint | null => {
  if (price === undefined) return null
  const total = BigInt(inputTokens) * BigInt(price.inputMicroUsdPerMillionTokens) +
    BigInt(outputTokens) * BigInt(price.outputMicroUsdPerMillionTokens)
  return (total + 999_999n) / 1_000_000n
}
