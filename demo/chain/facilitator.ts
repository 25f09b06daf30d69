/**
 * A local x402 facilitator (x402 v2, https://github.com/coinbase/x402): `@x402/core`'s
 * `x402Facilitator` with `@x402/evm`'s `exact` scheme (EIP-3009 `transferWithAuthorization`)
 * registered for one anvil network, served over HTTP on a free port of 127.0.0.1: for the tests
 * and `npm run demo:chain`. Never run it anywhere real: it settles from an anvil development
 * account.
 *
 * Routes (JSON bodies, as `@x402/core`'s `HTTPFacilitatorClient` speaks them):
 * - `POST /verify` `{x402Version, paymentPayload, paymentRequirements}` → `VerifyResponse`
 *   (`{isValid, invalidReason?, payer?}`);
 * - `POST /settle` (same body) → `SettleResponse` (`{success, transaction, network, payer?,
 *   errorReason?}`): broadcasts the authorization and waits for its receipt;
 * - `GET /supported` → `{kinds: [{x402Version: 2, scheme: "exact", network}], extensions, signers}`.
 *
 * Anything else answers 404; a malformed body 400 `{error}`.
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import { x402Facilitator } from "@x402/core/facilitator"
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types"
import { toFacilitatorEvmSigner } from "@x402/evm"
import { ExactEvmScheme } from "@x402/evm/exact/facilitator"
import { createWalletClient, http, publicActions } from "viem"
import type { Anvil } from "./anvil.js"

/** A running facilitator. */
export interface LocalFacilitator {
  /** `http://127.0.0.1:<port>`: `X402_FACILITATOR_URL`. */
  readonly url: string
  /** `127.0.0.1:<port>`, for `OUTBOUND_ALLOWED_HOSTS`. */
  readonly host: string
  /** The address that broadcasts settlements (pays their gas). */
  readonly signer: `0x${string}`
  /** How many settlements it broadcast. */
  readonly settlements: () => number
  readonly stop: () => Promise<void>
}

const readJson = (request: IncomingMessage): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))
      } catch (e) {
        reject(e)
      }
    })
    request.on("error", reject)
  })

/**
 * Starts a facilitator for `anvil`'s network that settles from its development account
 * `accountIndex` (default 9, an account the service's tests do not otherwise use).
 */
export const startFacilitator = async (anvil: Anvil, options: { readonly accountIndex?: number } = {}): Promise<LocalFacilitator> => {
  const account = anvil.accounts[options.accountIndex ?? 9]!
  const client = createWalletClient({ account, chain: anvil.chain, transport: http(anvil.rpcUrl, { retryCount: 0 }) }).extend(publicActions)
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => client.readContract(args as never),
    verifyTypedData: (args) => client.verifyTypedData(args as never),
    writeContract: (args) => client.writeContract({ ...args, account, chain: anvil.chain } as never),
    sendTransaction: (args) => client.sendTransaction({ ...args, account, chain: anvil.chain }),
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt({ ...args, pollingInterval: 50 }),
    getCode: (args) => client.getCode(args)
  })
  let settled = 0
  const facilitator = new x402Facilitator().register(anvil.network as `${string}:${string}`, new ExactEvmScheme(signer))
  const server: Server = createServer((request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify(body))
    }
    const route = `${request.method} ${(request.url ?? "").split("?")[0]}`
    if (route === "GET /supported") return answer(200, facilitator.getSupported())
    if (route !== "POST /verify" && route !== "POST /settle") return answer(404, { error: "not found" })
    readJson(request).then(async (body) => {
      const { paymentPayload, paymentRequirements } = (body ?? {}) as {
        paymentPayload?: PaymentPayload
        paymentRequirements?: PaymentRequirements
      }
      if (paymentPayload === undefined || paymentRequirements === undefined) {
        return answer(400, { error: "paymentPayload and paymentRequirements are required" })
      }
      if (route === "POST /verify") return answer(200, await facilitator.verify(paymentPayload, paymentRequirements))
      const result = await facilitator.settle(paymentPayload, paymentRequirements)
      if (result.success) settled += 1
      return answer(200, result)
    }).catch((e: unknown) => answer(400, { error: e instanceof Error ? e.message : String(e) }))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    signer: account.address,
    settlements: () => settled,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
