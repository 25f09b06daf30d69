/**
 * The embeddings model of the directory search (docs/search.md "Vector similarity"): `@effect/ai`'s
 * `EmbeddingModel` of the OpenAI provider (`@effect/ai-openai`, the embeddings API
 * `POST {baseUrl}/embeddings`, `Authorization: Bearer <apiKey>`), for the model profile named by
 * `SEARCH_EMBEDDINGS_PROFILE` (src/agents/Config.ts, layers/ModelProfiles.ts), over the guarded
 * outbound client (layers/Outbound.ts: a local model server must be in `OUTBOUND_ALLOWED_HOSTS`).
 */
import type { EmbeddingModel } from "@effect/ai"
import * as HttpClient from "@effect/platform/HttpClient"
import { type Duration, Effect, type Scope } from "effect"
import type { ModelProfile, ModelProfiles } from "../../../layers/ModelProfiles.js"
import type { Outbound } from "../../../layers/Outbound.js"
import type { SearchEmbeddingsSettings } from "../Config.js"

/**
 * The profile `settings` name among `profiles`. A name that is not a profile, or a profile not of kind
 * `openai` (the Anthropic API has no embeddings), is a start-up defect naming the setting, never a value
 * of the profile.
 */
export const embeddingsProfile = (settings: SearchEmbeddingsSettings, profiles: ModelProfiles): Effect.Effect<ModelProfile> => {
  const profile = Object.hasOwn(profiles, settings.profile) ? profiles[settings.profile] : undefined
  if (profile === undefined) {
    return Effect.dieMessage("SEARCH_EMBEDDINGS_PROFILE must name a profile of MODEL_PROFILES or MODEL_PROFILES_FILE")
  }
  if (profile.kind !== "openai") {
    return Effect.dieMessage("SEARCH_EMBEDDINGS_PROFILE must name a profile of kind openai (the embeddings API)")
  }
  return Effect.succeed(profile)
}

/**
 * An `EmbeddingModel` of `model` on `profile` over `outbound`'s client: requests of at most
 * `maxBatchSize` inputs; with `cache`, each input's embedding is kept for `timeToLive` (at most
 * `capacity` inputs). The provider's modules are imported here, when embeddings are configured, not with
 * the server. Its client lives as long as the scope.
 */
export const makeEmbedder = (
  profile: ModelProfile,
  model: string,
  outbound: typeof Outbound.Service,
  options: { readonly maxBatchSize: number; readonly cache?: { readonly capacity: number; readonly timeToLive: Duration.DurationInput } }
): Effect.Effect<EmbeddingModel.Service, never, Scope.Scope> =>
  Effect.gen(function*() {
    const [AiEmbeddingModel, OpenAiClient, OpenAiEmbeddingModel] = yield* Effect.promise(() =>
      Promise.all([
        import("@effect/ai/EmbeddingModel"),
        import("@effect/ai-openai/OpenAiClient"),
        import("@effect/ai-openai/OpenAiEmbeddingModel")
      ])
    )
    const http = yield* HttpClient.HttpClient.pipe(Effect.provide(outbound.httpClient))
    const client = yield* OpenAiClient.make({ apiKey: profile.apiKey, apiUrl: profile.baseUrl }).pipe(
      Effect.provideService(HttpClient.HttpClient, http)
    )
    return yield* AiEmbeddingModel.EmbeddingModel.pipe(
      Effect.provide(OpenAiEmbeddingModel.layerBatched({
        model,
        config: {
          maxBatchSize: options.maxBatchSize,
          ...(options.cache === undefined ? {} : { cache: options.cache })
        }
      })),
      Effect.provideService(OpenAiClient.OpenAiClient, client)
    )
  })

/** Most dimensions of an embedding pgvector's `vector` type holds. */
export const MaxDimensions = 16_000

/**
 * True when `v` can be stored and compared: 1 to {@link MaxDimensions} finite numbers, not all zero (the
 * cosine distance of a zero vector is undefined).
 */
export const usableVector = (v: ReadonlyArray<number>): boolean =>
  v.length >= 1 && v.length <= MaxDimensions && v.every(Number.isFinite) && v.some((x) => x !== 0)

/** A vector as pgvector's text form (`[0.1,0.2]`). */
export const vectorLiteral = (v: ReadonlyArray<number>): string => `[${v.join(",")}]`
