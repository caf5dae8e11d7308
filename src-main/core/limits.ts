/**
 * Every size limit DiffTray enforces on what clients send. The numbers live in shared/limits.ts, where
 * the app API's schemas can state them too; main imports them from here.
 */
export * from '../../shared/limits';
