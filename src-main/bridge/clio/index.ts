/** The Clio IDE bridge (seed 000): `startClioEndpoint` and where its discovery file goes. */
export { startClioEndpoint, type ClioEndpoint, type ClioEndpointOptions } from './endpoint';
export { clioBridgeFile } from './bridge-file';
export { CLIO_AUTH_HEADER, CLIO_CLIENT_NAME } from './connection';
