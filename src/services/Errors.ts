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
