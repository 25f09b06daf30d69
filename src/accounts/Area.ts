/** The accounts area: accounts (sign-up, verification, reset), sessions and API keys (spec §5). Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { migrations } from "./Migrations.js"
import { AccountsHttpLive } from "./Http.js"
import { Accounts } from "./Accounts.js"
import { ApiKeys } from "./apiKeys/ApiKeys.js"
import { SignUp } from "./signUp/SignUp.js"
import { Mfa } from "./mfa/Mfa.js"

/** The accounts area's handlers (see `src/Area.ts`). */
export const AccountsArea = {
  name: "accounts",
  http: AccountsHttpLive.pipe(Layer.provide([Accounts.Default, ApiKeys.Default, SignUp.Default, Mfa.Default])),
  migrations
} satisfies Area
