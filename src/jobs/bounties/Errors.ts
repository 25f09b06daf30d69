/**
 * The problem causes of Bounty disputes (admin) (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/** 404 `dispute-not-found`: no such dispute on that bounty. */
export class DisputeNotFound extends Problem<DisputeNotFound>()("DisputeNotFound", {
  status: 404, type: "dispute-not-found", meaning: "no such dispute on that bounty"
}) {}
/** 400 `units-rule`: the units break the resolution's rule or do not add up to the escrowed amount. */
export class UnitsRule extends Problem<UnitsRule>()("UnitsRule", {
  status: 400, type: "units-rule", meaning: "the units break the resolution's rule or do not add up to the escrowed amount"
}) {}
/** 400 `approval-required`: applying needs the preview's `approvedCommandHash` and `confirmation`. */
export class ApprovalRequired extends Problem<ApprovalRequired>()("ApprovalRequired", {
  status: 400, type: "approval-required", meaning: "applying needs the preview's `approvedCommandHash` and `confirmation`"
}) {}
/** 409 `command-hash-mismatch`: `approvedCommandHash` is not the hash of this command; preview again. */
export class CommandHashMismatch extends Problem<CommandHashMismatch>()("CommandHashMismatch", {
  status: 409, type: "command-hash-mismatch", meaning: "`approvedCommandHash` is not the hash of this command; preview again"
}) {}
/**
 * 503 `escrow-unavailable`: the escrow cannot be paid out now: its network is not configured
 * (`CHAIN_RPC_URLS`) or the platform's arbiter signer is not (`CHAIN_SIGNER_PRIVATE_KEY`).
 * Nothing is applied; retry once configured.
 */
export class EscrowUnavailable extends Problem<EscrowUnavailable>()("EscrowUnavailable", {
  status: 503, type: "escrow-unavailable", meaning: "the escrow's network or the platform's arbiter signer is not configured"
}) {}
/** 404 `bounty-not-found`: no such bounty, or not one the caller may see. */
export class BountyNotFound extends Problem<BountyNotFound>()("BountyNotFound", {
  status: 404, type: "bounty-not-found", meaning: "no such bounty, or not one the caller may see"
}) {}
/**
 * 422 `payout-wallet-required`: claiming needs a wallet of the claimant's workspace on the
 * bounty's network (Wallets_RegisterWallet): the escrow pays the reward to it.
 */
export class PayoutWalletRequired extends Problem<PayoutWalletRequired>()("PayoutWalletRequired", {
  status: 422, type: "payout-wallet-required", meaning: "the claimant's workspace has no registered wallet on the bounty's network"
}) {}
/** 422 `funder-wallet-required`: funding needs a wallet of the poster's workspace on the bounty's network. */
export class FunderWalletRequired extends Problem<FunderWalletRequired>()("FunderWalletRequired", {
  status: 422, type: "funder-wallet-required", meaning: "the poster's workspace has no registered wallet on the bounty's network"
}) {}
