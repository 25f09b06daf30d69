/**
 * Domain rules of the Services area (spec §2.5, §3, §4.3): service offers, their prices, terms
 * revisions and states.
 *
 * Every command on an existing offer is a versioned command of `src/db/versioned.ts`: one conditional
 * UPDATE of the offer (`version` + 1) by a member holding `services.offers.write` in the workspace of
 * the offer's service; when nothing changed, the refusal is explained in the one order (404
 * `offer-not-found`, 403 `role-required`, 409 `version-conflict`, 409 `invalid-state`, then the
 * command's own reason).
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect, Option } from "effect"
import { BaseError, ContractFunctionRevertedError, ContractFunctionZeroDataError, erc20Abi, getAddress } from "viem"
import { Chain } from "../../layers/Chain.js"
import { OfferIncomplete, OfferNotFound, OfferSlugTaken } from "./Errors.js"
import { recordActivity } from "../../layers/Activity.js"
import { now } from "../../layers/Clock.js"
import { Cursor } from "../../layers/Cursor.js"
import { Ids } from "../../layers/Ids.js"
import { runVersioned } from "../db/versioned.js"
import {
  AgentOfferPosition,
  EditableFrom,
  PausableFrom,
  PublishableFrom,
  RetirableFrom,
  ServicesRepo
} from "./Repo.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"
import { rolesFor } from "../../schema/roles.js"
import { AgentNotFound, ChainRpcUnavailable, InvalidCursor, InvalidRequest, InvalidState, RoleRequired } from "../../schema/errors.js"
import type { InvalidParam } from "../../schema/problem.js"
import { AgentOperators, requireActiveAgent } from "../agentAccess/index.js"
import {
  type CreateServiceOfferRequest,
  DefaultX402ResourceTemplate,
  Erc20AssetPattern,
  type FulfillmentInput,
  type ListAgentOffersQuery,
  type ServiceOffer,
  type SetOfferPricesRequest,
  type UpdateServiceOfferRequest
} from "./Schemas.js"

/** Who runs a command on an offer, at which version. */
interface OfferCommand {
  readonly offerId: string
  readonly version: number
  readonly accountId: string
}

/** The policy as stored: the payout address in its EIP-55 form. */
const normalized = (f: FulfillmentInput): FulfillmentInput => ({
  ...f,
  payoutAddress: f.payoutAddress === null ? null : getAddress(f.payoutAddress.toLowerCase())
})

const invalid = (errors: ReadonlyArray<InvalidParam>) =>
  new InvalidRequest({
    detail: `The request is not valid: ${errors.map((e) => `${e.pointer} ${e.detail}`).join("; ")}`,
    errors
  })

/** Service offers. Requires `SqlClient`, `Ids`, `Cursor`. */
export class Services extends Effect.Service<Services>()("agent-directory/Services", {
  effect: Effect.gen(function*() {
    const repo = yield* ServicesRepo
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const cursor = yield* Cursor
    const operators = yield* AgentOperators
    const chain = yield* Chain
    const writers = rolesFor("services.offers.write")

    const reload = (offerId: string) => repo.findById(offerId).pipe(Effect.flatMap(Effect.orDie))

    /**
     * One versioned command on an offer: `update` (the conditional statement) or, when it changed
     * nothing, the explanation; then the offer as it is now.
     */
    const versioned = <O = never>(
      input: OfferCommand,
      fromStates: ReadonlyArray<string>,
      update: Effect.Effect<Option.Option<number>, SqlError.SqlError, SqlClient.SqlClient>,
      at: Date,
      otherwise?: (row: { readonly hasCurrentPrice: boolean; readonly hasTerms: boolean }) => O | undefined
    ) =>
      runVersioned({
        resource: "service offer",
        expectedVersion: input.version,
        fromStates,
        roles: writers,
        update,
        current: repo.access({ id: input.offerId, accountId: input.accountId, at }),
        notFound: () => new OfferNotFound({ detail: `No service offer ${input.offerId}.` }),
        ...(otherwise === undefined ? {} : { otherwise })
      })

    /**
     * Services_CreateServiceOffer: a DRAFT offer (version 1, its fulfillment policy at version 1) of agent
     * `agentId`, sold by the agent's service in its operating workspace (created, named after the agent,
     * on its first offer), with terms revision 1. Fails with `AgentNotFound` (the agent is not operated
     * by a workspace the caller is an ACTIVE member of), `RoleRequired` (the role lacks
     * `services.offers.write`), `InvalidState` (a RETIRED agent) or `OfferSlugTaken`.
     */
    const create = (input: CreateServiceOfferRequest & { readonly accountId: string }): Effect.Effect<
      ServiceOffer,
      AgentNotFound | RoleRequired | InvalidState | OfferSlugTaken
    > =>
      Effect.gen(function*() {
        const at = yield* now
        const agent = yield* operators.access({
          entityPublicId: input.agentId.toLowerCase(),
          accountId: input.accountId,
          roles: { allowed: writers, action: "Creating a service offer" }
        })
        yield* requireActiveAgent(agent, "Creating a service offer")
        const serviceId = yield* repo.ensureService({
          newId: yield* ids.next,
          agentId: input.agentId.toLowerCase(),
          workspaceId: agent.workspaceId
        })
        const offerId = yield* ids.next
        const inserted = yield* repo.insertOffer({
          id: offerId,
          serviceId,
          title: input.title,
          slug: input.slug,
          description: input.description,
          pricingModel: input.pricingModel,
          fulfillment: normalized(input.fulfillment),
          at
        })
        if (!inserted) {
          return yield* new OfferSlugTaken({
            detail: "Another offer of this agent has this slug; choose another `slug`.",
            errors: [{ in: "body", pointer: "/slug", detail: "must be unique among the agent's offers" }]
          })
        }
        yield* repo.insertTerms({ id: yield* ids.next, offerId, termsMarkdown: input.termsMarkdown, at })
        return yield* reload(offerId)
      }).pipe(dieOnStorageFailure)

    /**
     * Services_UpdateServiceOffer: changes the fields given (title, slug, description, pricingModel, the
     * whole fulfillment policy) of an offer in any state but RETIRED, `version` + 1;
     * `fulfillmentPolicyVersion` + 1 when the policy differs from the current one. Fails with `InvalidRequest` (no field to
     * change), `OfferNotFound`, `RoleRequired`, `VersionConflict`, `InvalidState`, `OfferSlugTaken`,
     * `Conflict`.
     */
    const update = (input: UpdateServiceOfferRequest & { readonly offerId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const at = yield* now
        const { accountId, offerId, version, ...fields } = input
        const sets = [
          ...(fields.title === undefined ? [] : [sql`title = ${fields.title}`]),
          ...(fields.slug === undefined ? [] : [sql`slug = ${fields.slug}`]),
          ...(fields.description === undefined ? [] : [sql`description = ${fields.description}`]),
          ...(fields.pricingModel === undefined ? [] : [sql`pricing_model = ${fields.pricingModel}`]),
          // the policy version moves only when the policy does (the assignments all read the old row)
          ...(fields.fulfillment === undefined ? [] : [
            sql`fulfillment_policy_version = fulfillment_policy_version +
                CASE WHEN ${repo.fulfillmentChanged(normalized(fields.fulfillment))} THEN 1 ELSE 0 END`,
            repo.fulfillmentSet(normalized(fields.fulfillment))
          ])
        ]
        if (sets.length === 0) {
          return yield* invalid([{ in: "body", pointer: "", detail: "must change at least one field besides version" }])
        }
        // a taken slug changes nothing, and is told only after the versioned rules (404, 403, 409) hold
        const slugTaken = fields.slug === undefined ? false : yield* repo.slugTakenBeside(offerId, fields.slug)
        yield* versioned(
          { offerId, version, accountId },
          EditableFrom,
          slugTaken
            ? Effect.succeed(Option.none())
            : repo.change({ id: offerId, version, accountId, set: sql.csv([...sets, sql`updated_at = ${at}`]), fromStates: EditableFrom }),
          at,
          () =>
            slugTaken
              ? new OfferSlugTaken({
                detail: "Another offer of this agent has this slug; choose another `slug`.",
                errors: [{ in: "body", pointer: "/slug", detail: "must be unique among the agent's offers" }]
              })
              : undefined
        )
        return yield* reload(offerId)
      }).pipe(dieOnStorageFailure)

    /**
     * Services_SetOfferPrices: a new price set (its `version` one more than the previous set's)
     * effective from `effectiveFrom` (default now) until `effectiveUntil`; every window of the previous
     * prices still open then is closed at that instant (a price not yet in effect gets an empty window),
     * and no price row is otherwise changed. Offer `version` + 1. An X402 price gets
     * `x402ResourceTemplate` (default `/api/v1/x402/offers/{offerId}/purchase`). Fails with
     * `InvalidRequest` (two prices for one network and asset, an unknown asset or one of another
     * network, an X402 price without a network, a window in the past or empty), `OfferNotFound`,
     * `RoleRequired`, `VersionConflict`, `InvalidState`, `Conflict`.
     */
    const setPrices = (request: SetOfferPricesRequest & { readonly offerId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        let input = request
        const at = yield* now
        const from = input.effectiveFrom ?? at
        const errors: Array<InvalidParam> = []
        if (from.getTime() < at.getTime()) {
          errors.push({ in: "body", pointer: "/effectiveFrom", detail: "must not be before the current time" })
        }
        if (input.effectiveUntil !== null && input.effectiveUntil.getTime() <= from.getTime()) {
          errors.push({ in: "body", pointer: "/effectiveUntil", detail: "must be after effectiveFrom" })
        }
        // a token named by its CAIP-19 id: its asset row (added on first use)
        const prices: Array<typeof input.prices[number]> = []
        for (const [i, price] of input.prices.entries()) {
          const token = Erc20AssetPattern.exec(price.assetPublicId)
          if (token === null) {
            prices.push(price)
            continue
          }
          const assetId = yield* tokenAsset(price.networkPublicId?.toLowerCase() ?? null, token[1]!, token[2]!)
          if (typeof assetId === "string") prices.push({ ...price, assetPublicId: assetId })
          else {
            errors.push({ in: "body", pointer: `/prices/${i}/assetPublicId`, detail: assetId.rule })
            prices.push(price)
          }
        }
        if (errors.length > 0) return yield* invalid(errors.slice(0, 20))
        input = { ...input, prices: prices as unknown as typeof input.prices }
        const known = new Map((yield* repo.assets(input.prices.map((p) => p.assetPublicId.toLowerCase()))).map((a) => [a.id, a]))
        const seen = new Set<string>()
        input.prices.forEach((price, i) => {
          const asset = known.get(price.assetPublicId.toLowerCase())
          const network = price.networkPublicId?.toLowerCase() ?? null
          if (asset === undefined) {
            errors.push({ in: "body", pointer: `/prices/${i}/assetPublicId`, detail: "must be a known asset" })
          } else if (network !== null && asset.networkId !== network) {
            errors.push({ in: "body", pointer: `/prices/${i}/assetPublicId`, detail: "must be an asset of the price's network" })
          }
          if ((price.x402 || price.x402ResourceTemplate !== undefined) && network === null) {
            errors.push({ in: "body", pointer: `/prices/${i}/networkPublicId`, detail: "must be a network for an X402 price" })
          }
          const key = `${network}/${price.assetPublicId.toLowerCase()}`
          if (seen.has(key)) {
            errors.push({ in: "body", pointer: `/prices/${i}`, detail: "must be the only price of its network and asset" })
          }
          seen.add(key)
        })
        if (errors.length > 0) return yield* invalid(errors.slice(0, 20))
        const { accountId, offerId, version } = input
        yield* versioned(
          { offerId, version, accountId },
          EditableFrom,
          repo.change({ id: offerId, version, accountId, set: sql`updated_at = ${at}`, fromStates: EditableFrom }),
          at
        )
        const priceVersion = yield* repo.nextPriceVersion(offerId)
        yield* repo.closePrices(offerId, from)
        for (const price of input.prices) {
          const x402 = price.x402 || price.x402ResourceTemplate !== undefined
          yield* repo.insertPrice({
            id: yield* ids.next,
            offerId,
            version: priceVersion,
            networkId: price.networkPublicId?.toLowerCase() ?? null,
            assetId: price.assetPublicId.toLowerCase(),
            units: price.units,
            from,
            until: input.effectiveUntil,
            x402ResourceTemplate: x402 ? price.x402ResourceTemplate ?? DefaultX402ResourceTemplate : null
          })
        }
        return yield* reload(offerId)
      }).pipe(dieOnStorageFailure)

    /**
     * The asset id of ERC-20 token `address` on network `caip2` (a CAIP-19 id of a price), for a price
     * on network `networkId`: the token's asset row, added on first use with its `symbol()` and
     * `decimals()` read from the network's RPC endpoint (`CHAIN_RPC_URLS`). A rule it breaks (a price
     * without its network, a network not configured, a contract that is no ERC-20) comes back as
     * `{rule}`. Fails with `ChainRpcUnavailable` when the endpoint does not answer.
     */
    const tokenAsset = (networkId: string | null, caip2: string, address: string) =>
      Effect.gen(function*() {
        const onNetwork = { rule: "must be an asset of the price's network" }
        if (networkId === null) return onNetwork
        const networkCaip2 = yield* repo.networkCaip2(networkId)
        if (Option.isNone(networkCaip2) || networkCaip2.value !== caip2) return onNetwork
        const caip19 = `${caip2}/erc20:${address.toLowerCase()}`
        const existing = yield* repo.assetByCaip19(caip19)
        if (Option.isSome(existing)) return existing.value
        const client = yield* Effect.option(chain.client(caip2))
        if (Option.isNone(client)) return { rule: "must be a token of a network configured in CHAIN_RPC_URLS" }
        const token = getAddress(address.toLowerCase())
        const read = yield* Effect.either(Effect.tryPromise(() =>
          Promise.all([
            client.value.readContract({ address: token, abi: erc20Abi, functionName: "decimals" }),
            client.value.readContract({ address: token, abi: erc20Abi, functionName: "symbol" })
          ])
        ))
        if (read._tag === "Left") {
          // a contract that answers but is no ERC-20 (no code, a revert) is the caller's; anything else the endpoint's
          const cause = read.left.error
          if (cause instanceof BaseError && cause.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError) !== null) {
            return { rule: "must be an ERC-20 token (its decimals() and symbol() answer)" }
          }
          return yield* Effect.fail(new ChainRpcUnavailable({ detail: `The RPC endpoint of ${caip2} did not answer.` }))
        }
        const [decimals, symbol] = read.right
        yield* repo.insertAsset({ id: yield* ids.next, networkId, caip19, symbol: symbol.slice(0, 32), decimals })
        return Option.getOrThrow(yield* repo.assetByCaip19(caip19))
      })

    /**
     * Services_CreateTermsRevision: appends terms revision n + 1 to an offer in any state but RETIRED,
     * offer `version` + 1 (earlier revisions stay, as orders name them). Fails with `OfferNotFound`,
     * `RoleRequired`, `VersionConflict`, `InvalidState`, `Conflict`.
     */
    const addTerms = (input: OfferCommand & { readonly termsMarkdown: string }) =>
      Effect.gen(function*() {
        const at = yield* now
        const { accountId, offerId, version } = input
        yield* versioned(
          input,
          EditableFrom,
          repo.change({ id: offerId, version, accountId, set: sql`updated_at = ${at}`, fromStates: EditableFrom }),
          at
        )
        yield* repo.insertTerms({ id: yield* ids.next, offerId, termsMarkdown: input.termsMarkdown, at })
        return yield* reload(offerId)
      }).pipe(dieOnStorageFailure)

    /**
     * Services_PublishServiceOffer (spec §4.3): moves the offer to PUBLISHED and sets
     * `publishedAt`, when `version` is the current version (optimistic concurrency),
     * the state is DRAFT, REVIEW or PAUSED, and the offer has a current price and
     * terms. The change is one conditional UPDATE through the shared optimistic
     * concurrency of `src/db/versioned.ts`, so concurrent publishes at one version
     * succeed exactly once.
     *
     * Fails with `NotFound` (no such offer, or the caller is not a member of its
     * workspace), `Forbidden` (member without an editor role), `Conflict`
     * (`version-conflict`, `invalid-state`, `offer-incomplete`).
     *
     * An offer of an agent's service records, in the same transaction, the agent's public
     * activity item DOMAIN_EVENT `offer.published` (spec §2.21), once per offer version published.
     */
    const publish = (input: OfferCommand) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* versioned(
          input,
          PublishableFrom,
          repo.publish({ id: input.offerId, version: input.version, accountId: input.accountId, at }),
          at,
          (offer): OfferIncomplete =>
            new OfferIncomplete({
              detail: !offer.hasTerms ? "The offer has no terms revision." : "The offer has no current price."
            })
        )
        const offer = yield* reload(input.offerId)
        const agent = yield* repo.agentOf(input.offerId)
        if (Option.isSome(agent)) {
          yield* recordActivity({
            agentId: agent.value.agentId,
            activityKey: "offer.published",
            dedupeKey: `offer.published:${offer.id}:${offer.version}`,
            sourceKind: "DOMAIN_EVENT",
            summary: `Published the offer ${offer.title}.`,
            occurredAt: at
          }).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.provideService(Ids, ids))
        }
        return offer
      }).pipe(dieOnStorageFailure)

    /** A state move of `fromStates` to `state` (PAUSED, RETIRED). */
    const move = (input: OfferCommand, fromStates: ReadonlyArray<string>, state: "PAUSED" | "RETIRED") =>
      Effect.gen(function*() {
        const at = yield* now
        yield* versioned(
          input,
          fromStates,
          repo.change({
            id: input.offerId,
            version: input.version,
            accountId: input.accountId,
            set: sql`state = ${state}, updated_at = ${at}`,
            fromStates
          }),
          at
        )
        return yield* reload(input.offerId)
      }).pipe(dieOnStorageFailure)

    /**
     * Services_PauseServiceOffer: PUBLISHED → PAUSED, `version` + 1 (publish resumes it). Fails with
     * `OfferNotFound`, `RoleRequired`, `VersionConflict`, `InvalidState`, `Conflict`.
     */
    const pause = (input: OfferCommand) => move(input, PausableFrom, "PAUSED")

    /**
     * Services_RetireServiceOffer: any state but RETIRED → RETIRED (final), `version` + 1. Fails with
     * `OfferNotFound`, `RoleRequired`, `VersionConflict`, `InvalidState`, `Conflict`.
     */
    const retire = (input: OfferCommand) => move(input, RetirableFrom, "RETIRED")

    /**
     * Services_GetServiceOffer: the offer with every price (past, current and future windows), when
     * it is PUBLISHED or the caller (`accountId`, null when anonymous or an API key) is an ACTIVE
     * member of its workspace. Fails with `OfferNotFound`.
     */
    const get = (offerId: string, accountId: string | null): Effect.Effect<ServiceOffer, OfferNotFound> =>
      repo.findVisible({ id: offerId.toLowerCase(), accountId }).pipe(
        dieOnStorageFailure,
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new OfferNotFound({ detail: `No service offer ${offerId} visible to the caller.` })),
          onSome: Effect.succeed
        }))
      )

    /**
     * Services_ListAgentOffers: one page of agent `agentId`'s PUBLISHED offers, newest publication
     * first, each with only the prices in effect now, and the signed cursor of the next page (bound to
     * the agent). Fails with `AgentNotFound` or `InvalidCursor`.
     */
    const listForAgent = (agentId: string, query: ListAgentOffersQuery): Effect.Effect<
      { readonly rows: ReadonlyArray<ServiceOffer>; readonly nextCursor: string | null },
      AgentNotFound | InvalidCursor
    > =>
      Effect.gen(function*() {
        const id = agentId.toLowerCase()
        if (!(yield* repo.agentExists(id))) return yield* new AgentNotFound({ detail: `No agent ${id}.` })
        const at = yield* now
        const page = yield* cursor.page({
          position: AgentOfferPosition,
          cursor: query.cursor,
          param: "cursor",
          binding: { operation: "Services_ListAgentOffers", agent: id },
          limit: query.limit,
          fetch: (after, take) => repo.publishedOfAgent(id, after, take, at),
          positionOf: (row) => ({ publishedAt: row.position, id: row.offer.id })
        })
        return { rows: page.rows.map((row) => row.offer), nextCursor: page.nextCursor }
      }).pipe(dieOnStorageFailure)

    return { create, update, setPrices, addTerms, publish, pause, retire, get, listForAgent }
  }),
  dependencies: [ServicesRepo.Default, AgentOperators.Default]
}) {}
