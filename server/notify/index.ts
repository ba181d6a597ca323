export * from './push';
export * from './pushLoop';
export * from './orderPushes';
