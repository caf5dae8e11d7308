import { createContext, useContext } from 'react';
import type { AppApi } from '../../shared/app-api';

/** The app API itself, for the few calls that are not review actions (disconnecting a client). */
export const ApiContext = createContext<AppApi | null>(null);

export function useApi(): AppApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside ApiContext');
  return api;
}
