/** Business constants of SPEC.md section 9, in one place for the server, the machines and the views. */

export const PRODUCT_NAME = 'Brew Ops';

export const DEFAULT_BRAND_ID = 7;
export const DEFAULT_BRANCH_ID = 1;
export const GUEST_USER_ID = 18;
export const DEFAULT_PAYMENT_METHOD_ID = 2;
/** The payment method of an order paid from the customer's brand wallet (migration 0048; provider 'wallet'). */
export const WALLET_PAYMENT_METHOD_ID = 8;
/** A payment method whose provider is the card provider is shown under this label. */
export const CARD_PAYMENT_LABEL = 'VISA/MASTER';

/** The shortest password any account may be given (registration, reset, user management). */
export const MIN_PASSWORD_LENGTH = 6;

export const CURRENCY_CODE = 'KD';
export const CURRENCY_DECIMALS = 3;

export const QUANTITY = {
  productPage: { min: 2, max: 69 },
  cart: { min: 1, max: 69 },
} as const;

/** The longest special remarks an order keeps (Store/SaveNewOrderVS1 `specialRemarks`; /product-review counts down to it). */
export const SPECIAL_REMARKS_MAX = 500;
/** The longest promotion code an order keeps (Store/SaveNewOrderVS1 `promoCode`; /product-review's field stops there). */
export const PROMO_CODE_MAX = 50;

export const ORDER_HISTORY_PAGE = { skip: 0, take: 5 } as const;
export const CUSTOMER_LIST_PAGE_SIZE = 10;

export const TIMINGS = {
  productSliderMs: 750,
  branchPickNavigateMs: 1000,
  productReviewWaitMs: 3000,
  carSaveRefreshMs: 3000,
  newOrderRefreshMs: 2000,
  /** The new-order alert sounds again this often while an announced order is pending and unread (issue 11). */
  newOrderRepeatMs: 15_000,
  /** The live order feed's heartbeat, sent by the server to every subscriber (issue 11). */
  feedHeartbeatMs: 2000,
  /** No heartbeat for this long and the feed counts as dead: 'Live' means heard from within it. */
  feedSilenceMs: 6000,
  chunkTimeoutMs: 120_000,
} as const;

export const SCROLL_TOP_THRESHOLD_PX = 50;
export const SHOP_BREAKPOINT_PX = 992;

export const MAP_DEFAULT = { center: [29.33, 47.9] as const, zoom: 10 } as const;
export const DEFAULT_ADDRESS_COORDS = { latitude: 29.36, longitude: 47.98 } as const;
/** An unauthenticated customer's temporary address gets this id. */
export const TEMP_ADDRESS_ID = 10;

export const PHONE_COUNTRY_CODES = ['965', '961', '973', '123'] as const;

/** A car's missing field, in the same words from the server (Cars/AddCustomerCar) and the profile's form. */
export const CAR_TEXT = {
  brand: 'Please choose the car brand.',
  type: 'Please choose the car type.',
  color: 'Please choose the car color.',
  plate: 'Please enter the plate number.',
} as const;

/** Verbatim texts of SPEC.md; clients and tests match on them, misspellings included. */
export const TEXT = {
  authFailed: 'Authorization is failed',
  genericError: 'Sorry!! Something went wrong(',
  errorTitle: 'Error',
  reviewerDenied: "Sorry, your company doesn't have permission",
  offline: 'You are offline.',
  newOrder: (id: number | string) => `You have a new order. #${id}`,
  changeBranchTitle: "You're about to change the branch",
  transactionSuccess: 'Transaction Successfull',
  resetUnknownPhone: 'Sorry, but user with this phone number not exist',
  validationError: 'Validation Error',
  addressAdded: 'Your Address Added successfully',
  addressUpdated: 'Your Address Updated successfully',
  companyAccessRemoved: 'Company was remove access',
  guest: {
    phoneRequired: 'Please Enter Phone Number',
    nameRequired: 'Please Enter Customer Name',
    invalidNumber: 'Please Enter a valid Number',
    invalidPhone: 'Not a valid Phone Number',
  },
  address: {
    region: 'Reqion is required',
    area: 'Area is required',
    block: 'Block Number is required',
    street: 'Street Number is required',
    house: 'House Number is required',
  },
} as const;
