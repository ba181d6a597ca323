export * from './storage';
export * from './localFiles';
