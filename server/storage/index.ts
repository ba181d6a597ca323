export * from './storage';
export * from './localFiles';
export * from './s3';
