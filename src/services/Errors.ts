/**
 * The problem causes of Service offers (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `offer-not-found`: no such offer visible to the caller. */
export class OfferNotFound extends Problem<OfferNotFound>()("OfferNotFound", {
  status: 404, type: "offer-not-found", meaning: "no such offer visible to the caller"
}) {}
/** 409 `offer-incomplete`: the offer lacks a current price or terms. */
export class OfferIncomplete extends Problem<OfferIncomplete>()("OfferIncomplete", {
  status: 409, type: "offer-incomplete", meaning: "the offer lacks a current price or terms"
}) {}
/** 409 `offer-slug-taken`: another offer of the same agent's service has this `slug`. */
export class OfferSlugTaken extends Problem<OfferSlugTaken>()("OfferSlugTaken", {
  status: 409, type: "offer-slug-taken", meaning: "`slug` is taken by another offer of the agent"
}) {}
