/**
 * The agents area's settings, read from the environment (Effect `Config`) and validated at start-up
 * (docs/configuration.md): the embeddings model of the directory search (`SEARCH_EMBEDDINGS_*`,
 * docs/search.md "Vector similarity"). The root provides {@link SearchSettingsLive} with the other
 * areas' settings (`src/config.ts`).
 */
import { Config, Context, Layer, Option } from "effect"
import { ProfileNamePattern } from "../../layers/ModelProfiles.js"

/** The embeddings model of the directory search: a model profile and one of its models. */
export interface SearchEmbeddingsSettings {
  /**
   * The model profile that computes embeddings (`SEARCH_EMBEDDINGS_PROFILE`): the name of a profile of
   * `MODEL_PROFILES` / `MODEL_PROFILES_FILE` of kind `openai` (the OpenAI embeddings API,
   * `POST {baseUrl}/embeddings`; a start-up defect names the setting when it is not one).
   */
  readonly profile: string
  /** The embeddings model of that profile (`SEARCH_EMBEDDINGS_MODEL`, default `text-embedding-3-small`). */
  readonly model: string
}

/** The agents area's settings. */
export interface SearchSettingsShape {
  /** The search's embeddings model; none (`SEARCH_EMBEDDINGS_PROFILE` unset, the default): text search only. */
  readonly searchEmbeddings: SearchEmbeddingsSettings | undefined
}

/** The agents area's settings. */
export class SearchSettings extends Context.Tag("agent-directory/SearchSettings")<SearchSettings, SearchSettingsShape>() {}

/** Rule of an embeddings model name: what OpenAI-compatible servers name models with (`text-embedding-3-small`, `nomic-embed-text:v1.5`). */
const ModelNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.:/@-]{0,127}$/

/** Reads and validates the agents area's settings (`ConfigProvider`); fails with `ConfigError`. */
export const searchSettings: Config.Config<SearchSettingsShape> = Config.all({
  profile: Config.option(Config.string("SEARCH_EMBEDDINGS_PROFILE").pipe(
    Config.validate({
      message: `SEARCH_EMBEDDINGS_PROFILE must be a model profile name (${ProfileNamePattern.source})`,
      validation: (s) => ProfileNamePattern.test(s)
    })
  )),
  model: Config.string("SEARCH_EMBEDDINGS_MODEL").pipe(
    Config.validate({
      message: `SEARCH_EMBEDDINGS_MODEL must match ${ModelNamePattern.source}`,
      validation: (s) => ModelNamePattern.test(s)
    }),
    Config.withDefault("text-embedding-3-small")
  )
}).pipe(Config.map(({ model, profile }) => ({
  searchEmbeddings: Option.match(profile, { onNone: () => undefined, onSome: (p) => ({ profile: p, model }) })
})))

/** The agents area's settings from the environment. */
export const SearchSettingsLive = Layer.effect(SearchSettings, searchSettings)
