/**
 * The orders' settings, read from the environment (Effect `Config`) and validated at start-up
 * (docs/configuration.md, docs/commerce.md). The root provides {@link OrderSettingsLive} with the
 * other areas' settings (`src/config.ts`).
 */
import { Config, Context, Layer } from "effect"

/** The orders' settings. */
export interface OrderSettingsShape {
  readonly orders: {
    /**
     * Minutes an order placed by Commerce_CreateOrder waits for its payment before it EXPIRES
     * (`payment_due_at`; `ORDER_PAYMENT_DUE_MINUTES`, an integer 1-10080, default 30).
     */
    readonly paymentDueMinutes: number
  }
}

/** The orders' settings. */
export class OrderSettings extends Context.Tag("agent-directory/OrderSettings")<OrderSettings, OrderSettingsShape>() {}

/** Reads and validates the orders' settings (`ConfigProvider`); fails with `ConfigError`. */
export const orderSettings: Config.Config<OrderSettingsShape> = Config.all({
  orders: Config.all({
    paymentDueMinutes: Config.integer("ORDER_PAYMENT_DUE_MINUTES").pipe(
      Config.validate({
        message: "ORDER_PAYMENT_DUE_MINUTES must be an integer 1-10080 (minutes, at most a week)",
        validation: (n) => n >= 1 && n <= 10080
      }),
      Config.withDefault(30)
    )
  })
})

/** The orders' settings from the environment. */
export const OrderSettingsLive = Layer.effect(OrderSettings, orderSettings)
