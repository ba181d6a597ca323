/**
 * An SMS cost as its provider reported it, in its currency (Unifonic: KWD at once; Twilio: USD,
 * up to 5 decimals), e.g. `0.416 KWD`: on /ValidationCode per code and on the dashboard per day.
 * Not the product's money format (formatMoney): the provider's bill is not always in KWD.
 */
export const smsCostText = (cost: number | string, currency: string | null | undefined) =>
  `${Number(Number(cost).toFixed(5))} ${currency ?? ''}`.trim();
