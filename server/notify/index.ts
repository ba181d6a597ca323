export * from './push';
export * from './pushLoop';
export * from './orderPushes';
export * from './language';
