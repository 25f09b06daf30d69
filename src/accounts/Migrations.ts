/**
 * The accounts area's migrations, by id (`NNNN_name`, global and ordered across areas): the
 * same record is its Area.ts `migrations` and an entry of `src/db/migrate.ts`, which imports
 * this light module (SQL only) rather than the area's HTTP layers.
 */
import type { Migrations } from "../Area.js"
import apiKeyManagement from "./migrations/0005_api_key_management.js"
import signUp from "./migrations/0032_sign_up.js"
import mfaTotp from "./migrations/0035_mfa_totp.js"

/** The accounts area's migrations, by id. */
export const migrations: Migrations = {
  "0005_api_key_management": apiKeyManagement,
  "0032_sign_up": signUp,
  "0035_mfa_totp": mfaTotp
}
