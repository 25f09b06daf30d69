/** The ads area: ad campaigns and ad events. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { migrations } from "./Migrations.js"
import { AdsHttpLive } from "./Http.js"
import { Campaigns } from "./Campaigns.js"
import { Packages } from "./Packages.js"
import { Review } from "./Review.js"
import { CampaignLifecycleLive } from "./Lifecycle.js"

/** The ads area's handlers and campaign lifecycle cron (see `src/Area.ts`). */
export const AdsArea = {
  name: "growth/ads",
  http: AdsHttpLive.pipe(Layer.provide([Campaigns.Default, Review.Default, Packages.Default])),
  workflows: CampaignLifecycleLive,
  migrations
} satisfies Area
