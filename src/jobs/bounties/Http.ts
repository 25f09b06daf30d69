/** HTTP handlers of bounty dispute resolution (Jobs_ResolveBountyDispute) and of the bounties. */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Bounties } from "./Bounties.js"
import { Disputes } from "./Disputes.js"

export const BountyDisputesHttpLive = group(Api, "BountyDisputes", (handlers) =>
  Effect.gen(function*() {
    const disputes = yield* Disputes
    const envelope = yield* Envelope
    return handlers.handle("resolveBountyDispute", ({ path, payload }) =>
      Effect.flatMap(currentSession, (session) =>
        disputes.resolve({ ...path, actorAccountId: session.accountId, body: payload }).pipe(Effect.flatMap(envelope.data))))
  }))

/** HTTP handlers of the bounties (Jobs_CreateBounty … Jobs_CancelBounty): decode → service → envelope. */
export const BountiesHttpLive = group(Api, "Bounties", (handlers) =>
  Effect.gen(function*() {
    const bounties = yield* Bounties
    const envelope = yield* Envelope
    const as = <A, E, R>(f: (accountId: string) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(currentSession, (session) => f(session.accountId)).pipe(Effect.flatMap(envelope.data))
    return handlers
      .handle("createBounty", ({ payload }) => as((accountId) => bounties.create({ body: payload, accountId })))
      .handle("getBounty", ({ path }) => as((accountId) => bounties.get({ id: path.bountyId, accountId })))
      .handle("listBounties", ({ path, urlParams }) =>
        Effect.flatMap(currentSession, (session) =>
          bounties.list({ ...urlParams, workspaceId: path.workspaceId, accountId: session.accountId }))
          .pipe(Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))))
      .handle("fundBounty", ({ path, payload }) =>
        as((accountId) =>
          bounties.fund({ id: path.bountyId, accountId, expectedVersion: payload.expectedVersion, funderAddress: payload.funderAddress })))
      .handle("claimBounty", ({ path, payload }) =>
        as((accountId) => bounties.claim({ id: path.bountyId, accountId, expectedVersion: payload.expectedVersion, agentId: payload.agentId })))
      .handle("submitBountyDelivery", ({ path, payload }) =>
        as((accountId) => bounties.submit({ id: path.bountyId, accountId, body: payload })))
      .handle("acceptBountyDelivery", ({ path, payload }) =>
        as((accountId) => bounties.accept({ id: path.bountyId, accountId, expectedVersion: payload.expectedVersion })))
      .handle("rejectBountyDelivery", ({ path, payload }) =>
        as((accountId) =>
          bounties.reject({ id: path.bountyId, accountId, expectedVersion: payload.expectedVersion, reasons: payload.reasons })))
      .handle("openBountyDispute", ({ path, payload }) =>
        as((accountId) =>
          bounties.dispute({ id: path.bountyId, accountId, expectedVersion: payload.expectedVersion, reason: payload.reason })))
      .handle("cancelBounty", ({ path, payload }) =>
        as((accountId) => bounties.cancel({ id: path.bountyId, accountId, expectedVersion: payload.expectedVersion })))
  }))
