/**
 * Buy an offer (`/offers/{offerId}/buy`, signed in as a member of a workspace with `commerce.buy`:
 * OWNER, ADMIN, BILLING): the offer and its prices (Services_GetServiceOffer, each price's network
 * from Networks_ListNetworks), a price, a quantity (1-1000) and a workspace of mine; the order
 * (Commerce_CreateOrder) with its locked total; then paid on chain from the browser's wallet
 * (docs/payments.md, the ONCHAIN rail):
 *
 * 1. the wallet's account (`eth_requestAccounts`) names the payer; Commerce_CreatePayment
 *    `{rail: ONCHAIN, payerAddress}` answers the payment and its transaction intent (an ERC-20
 *    `transfer` to the offer's payout address). An address that is not a registered wallet of the
 *    person there (422 `payer-wallet-required`) is registered first: a Sign-In with Ethereum
 *    message (EIP-4361) for this site, signed with `personal_sign` (Wallets_RegisterWallet);
 * 2. the wallet sends the intent's transaction (`eth_sendTransaction` with the intent's fields)
 *    and its hash is handed to the service (Wallets_SubmitTransactionIntent `{transactionHash}`),
 *    which looks it up on the network's node, checks it carries the intent's call and records it
 *    (asked again every second, up to 20 times, while the node does not know it yet: 422
 *    `transaction-unknown`);
 * 3. the order is read every 2 s (Commerce_GetOrder) while the block watcher observes and
 *    confirms the transfer: PAYMENT_OBSERVED, then PAID and ACTIVE with its entitlement.
 */
import { useEffect, useState } from "preact/hooks"
import { api, formatUnits, problemKind, problemText, type Schemas, type ServiceOffer } from "../api"
import { commandHeaders, useMe } from "../session"
import { connect, personalSign, sendTransaction, WalletError } from "../wallet"

type Order = Schemas["CommerceOrder"]
type Network = Schemas["NetworkItem"]
type Intent = Schemas["TransactionIntent"]

/** Roles that may buy for a workspace (`commerce.buy`). */
const Buyers: ReadonlyArray<string> = ["OWNER", "ADMIN", "BILLING"]

/** Order states after which nothing more happens by itself for the buyer. */
const Settled: ReadonlyArray<string> = ["PAID", "FULFILLMENT_PENDING", "ACTIVE", "COMPLETED", "CANCELLED", "EXPIRED", "MANUAL_REVIEW", "REFUND_PENDING", "REFUNDED"]

const failed = (error: unknown, response: Response) => new WalletError(problemText(error, response))

/** An EIP-4361 (Sign-In with Ethereum) message for this site, registering `address` on EIP-155 chain `chain`. */
const siweMessage = (address: string, chain: number): string => {
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("")
  return [
    `${location.host} wants you to sign in with your Ethereum account:`,
    address,
    "",
    "Register this address as a wallet of my workspace in the Agent Directory.",
    "",
    `URI: ${location.origin}`,
    "Version: 1",
    `Chain ID: ${chain}`,
    `Nonce: ${nonce}`,
    `Issued At: ${new Date().toISOString()}`
  ].join("\n")
}

/** The EIP-155 chain id of a CAIP-2 `eip155:<n>` network. */
const chainOf = (network: string): number => Number(network.split(":")[1])

const OrderView = ({ order }: { readonly order: Order }) => (
  <section aria-labelledby="order" class="order">
    <h2 id="order">Order {order.orderNumber}</h2>
    <dl class="facts">
      <dt>State</dt><dd><strong data-testid="order-state">{order.state}</strong></dd>
      <dt>Product</dt><dd>{order.productName}</dd>
      <dt>Total</dt><dd>{formatUnits(order.totalUnits, order.decimals)} {order.symbol ?? "units"} on {order.network}</dd>
      {order.payments.map((p) => (
        <>
          <dt>Payment ({p.rail})</dt>
          <dd>{p.state}{p.transactionHash !== null ? <> · <code>{p.transactionHash}</code></> : null}</dd>
        </>
      ))}
    </dl>
    {order.entitlements.length > 0 ? (
      <>
        <h3>Entitlement</h3>
        <ul>
          {order.entitlements.map((e) => (
            <li><strong>{e.code}</strong>: {e.state}{e.effectiveUntil !== null ? `, until ${new Date(e.effectiveUntil).toLocaleString()}` : ""}</li>
          ))}
        </ul>
      </>
    ) : null}
  </section>
)

export const Buy = ({ offerId }: { readonly offerId: string }) => {
  const me = useMe()
  const [offer, setOffer] = useState<ServiceOffer | undefined>(undefined)
  const [networks, setNetworks] = useState<ReadonlyArray<Network>>([])
  const [workspaces, setWorkspaces] = useState<ReadonlyArray<Schemas["MeWorkspace"]>>([])
  const [priceId, setPriceId] = useState<string | undefined>(undefined)
  const [quantity, setQuantity] = useState(1)
  const [workspaceId, setWorkspaceId] = useState<string | undefined>(undefined)
  const [order, setOrder] = useState<Order | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const [status, setStatus] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    void api.GET("/api/v1/offers/{offerId}", { params: { path: { offerId } } }).then((r) => {
      if (r.data === undefined) return setError(problemText(r.error, r.response))
      setOffer(r.data.data)
      setPriceId(r.data.data.prices[0]?.id)
      document.title = `Buy ${r.data.data.title} · Agent Directory`
    })
    void api.GET("/api/v1/networks").then((r) => r.data !== undefined && setNetworks(r.data.data))
  }, [offerId])
  useEffect(() => {
    if (me === null || me === undefined) return
    void api.GET("/api/v1/me").then((r) => {
      const mine = (r.data?.data.workspaces ?? []).filter((w) => Buyers.includes(w.role))
      setWorkspaces(mine)
      setWorkspaceId((current) => current ?? mine[0]?.publicId)
    })
  }, [me])

  // the order is followed until it settles
  useEffect(() => {
    if (order === undefined || Settled.includes(order.state) || order.payments.length === 0) return
    const timer = setTimeout(() => {
      void api.GET("/api/v1/orders/{orderId}", { params: { path: { orderId: order.id } } }).then((r) => {
        if (r.data !== undefined) setOrder(r.data.data)
        else setOrder({ ...order }) // read again on the next tick
      })
    }, 2000)
    return () => clearTimeout(timer)
  }, [order])

  const networkName = (id: string | null) => networks.find((n) => n.publicId === id)?.displayName ?? "an unlisted network"

  const placeOrder = async () => {
    if (priceId === undefined) throw new WalletError("Choose a price.")
    const r = await api.POST("/api/v1/orders", {
      params: { header: commandHeaders() },
      body: { offerPriceId: priceId, quantity, ...(workspaceId !== undefined ? { workspaceId } : {}) }
    })
    if (r.data === undefined) throw failed(r.error, r.response)
    setOrder(r.data.data)
  }

  /** Registers `address` as the person's wallet on the order's network (Sign-In with Ethereum). */
  const registerWallet = async (address: string, current: Order) => {
    // the order names its network by the directory's key; its CAIP-2 id is in the networks list
    const caip2 = networks.find((n) => n.publicId === current.networkPublicId)?.network ?? current.network
    if (!/^eip155:[0-9]+$/.test(caip2)) throw new WalletError("The order's network is not an EVM network this page can pay on.")
    const chain = chainOf(caip2)
    setStatus("This address is not a wallet of yours in the directory yet: sign the registration message in your wallet…")
    const message = siweMessage(address, chain)
    const signature = await personalSign(message, address)
    const r = await api.POST("/api/v1/wallets", {
      params: { header: commandHeaders() },
      body: { workspaceId: current.workspacePublicId, account: `eip155:${chain}:${address}`, message, signature }
    })
    if (r.data === undefined) throw failed(r.error, r.response)
  }

  const openPayment = async (current: Order, address: string): Promise<Intent> => {
    const pay = () => api.POST("/api/v1/orders/{orderId}/payments", {
      params: { path: { orderId: current.id }, header: commandHeaders() },
      body: { rail: "ONCHAIN", payerAddress: address }
    })
    let r = await pay()
    if (r.data === undefined && problemKind(r.error) === "payer-wallet-required") {
      await registerWallet(address, current)
      r = await pay()
    }
    if (r.data === undefined) throw failed(r.error, r.response)
    setOrder(r.data.data.order)
    const intent = r.data.data.transactionIntent
    if (intent === null) throw new WalletError("The directory opened no transaction for this payment.")
    return intent
  }

  const payOnChain = async (current: Order) => {
    setStatus("Asking your wallet for its account…")
    const address = await connect()
    const intent = await openPayment(current, address)
    if (intent.nonce === null) throw new WalletError("The payment's transaction has no nonce yet; try again.")
    setStatus("Confirm the transfer in your wallet…")
    const hash = await sendTransaction({
      from: intent.from,
      to: intent.to,
      data: intent.data,
      value: BigInt(intent.value),
      gas: BigInt(intent.fees.gasLimit),
      maxFeePerGas: BigInt(intent.fees.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(intent.fees.maxPriorityFeePerGas),
      nonce: intent.nonce,
      chainId: chainOf(intent.network)
    })
    setStatus("Sent; handing the transaction to the directory…")
    for (let attempt = 1; ; attempt++) {
      const r = await api.POST("/api/v1/transaction-intents/{intentId}/submit", {
        params: { path: { intentId: intent.id }, header: commandHeaders() },
        body: { transactionHash: hash }
      })
      if (r.data !== undefined) break
      // the service's node may not have the wallet's transaction yet
      if (problemKind(r.error) !== "transaction-unknown" || attempt === 20) throw failed(r.error, r.response)
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
    setStatus(`Transaction ${hash} sent; the order is paid once the chain confirms it.`)
    const read = await api.GET("/api/v1/orders/{orderId}", { params: { path: { orderId: current.id } } })
    if (read.data !== undefined) setOrder(read.data.data)
  }

  const run = (action: () => Promise<void>) => {
    setError(undefined)
    setBusy(true)
    void action().catch((e: unknown) => {
      setStatus(undefined)
      setError(e instanceof Error ? e.message : String(e))
    }).finally(() => setBusy(false))
  }

  if (offer === undefined) {
    return error === undefined ? <p class="muted">Loading…</p> : <div><h1 tabIndex={-1}>Buy</h1><p role="alert" class="error">{error}</p></div>
  }
  const payable = order !== undefined && (order.state === "CREATED" || order.state === "PAYMENT_PENDING")
  return (
    <div class="narrow">
      <h1 tabIndex={-1}>Buy {offer.title}</h1>
      <p>{offer.description}</p>
      <p class="muted">{offer.pricingModel}{offer.fulfillment.entitlementDays !== null ? ` · ${offer.fulfillment.entitlementDays} days of access` : ""} · terms revision {offer.termsRevision.revision}</p>
      {me === null ? (
        <p><a href={`/sign-in?next=${encodeURIComponent(`/offers/${offerId}/buy`)}`} data-route>Sign in</a> to buy this offer.</p>
      ) : order === undefined ? (
        <form
          onSubmit={(event) => {
            event.preventDefault()
            run(placeOrder)
          }}
        >
          <fieldset>
            <legend>Price</legend>
            {offer.prices.length === 0 ? <p>This offer has no price in effect.</p> : offer.prices.map((p) => (
              <p>
                <input type="radio" name="price" id={`price-${p.id}`} value={p.id} checked={priceId === p.id} onChange={() => setPriceId(p.id)} />
                <label for={`price-${p.id}`}>{p.units} units on {networkName(p.networkPublicId)}</label>
              </p>
            ))}
          </fieldset>
          <p>
            <label for="quantity">Quantity</label>
            <input id="quantity" type="number" min={1} max={1000} required value={quantity} onInput={(e) => setQuantity(Number(e.currentTarget.value))} />
          </p>
          <p>
            <label for="workspace">For the workspace</label>
            <select id="workspace" value={workspaceId} onChange={(e) => setWorkspaceId(e.currentTarget.value)}>
              {workspaces.map((w) => <option value={w.publicId}>{w.name}</option>)}
            </select>
          </p>
          {workspaces.length === 0 && me !== undefined ? <p class="muted">None of your workspaces may buy (an OWNER, ADMIN or BILLING role is needed).</p> : null}
          <button type="submit" disabled={busy || workspaces.length === 0 || priceId === undefined}>Place the order</button>
        </form>
      ) : (
        <>
          <OrderView order={order} />
          {payable ? (
            <p>
              <button type="button" disabled={busy} onClick={() => run(() => payOnChain(order))}>Pay with my wallet</button>
            </p>
          ) : null}
          {order.state === "ACTIVE" ? <p><a href={`/workspaces/${order.workspacePublicId}`} data-route>See it in your workspace</a></p> : null}
        </>
      )}
      {status !== undefined ? <p role="status" class="muted">{status}</p> : null}
      {error !== undefined ? <p role="alert" class="error">{error}</p> : null}
    </div>
  )
}
