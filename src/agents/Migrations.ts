/**
 * The agents area's migrations, by id (`NNNN_name`, global and ordered across areas): the
 * same record is its Area.ts `migrations` and an entry of `src/db/migrate.ts`, which imports
 * this light module (SQL only) rather than the area's HTTP layers.
 */
import type { Migrations } from "../Area.js"
import identity from "./migrations/0004_identity.js"
import agentDirectory from "./migrations/0013_agent_directory.js"
import agentRegistration from "./migrations/0016_agent_registration.js"
import agentSearch from "./migrations/0049_agent_search.js"
import agentSearchVectors from "./migrations/0053_agent_search_vectors.js"

/** The agents area's migrations, by id. */
export const migrations: Migrations = {
  "0004_identity": identity,
  "0013_agent_directory": agentDirectory,
  "0016_agent_registration": agentRegistration,
  "0049_agent_search": agentSearch,
  "0053_agent_search_vectors": agentSearchVectors
}
