import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createAppApi } from '../shared/app-api';
import { createActions } from './actions';
import { ApiContext } from './api-context';
import { selectCarrier } from './carriers/select';
import { App } from './components/App';
import { ActionsContext } from './context';
import { useAppStore } from './store';
import './styles.css';

const carrier = selectCarrier(window);
const api = createAppApi(carrier);
const actions = createActions(api);

api.onSnapshot((snapshot) => useAppStore.getState().applySnapshot(snapshot));
carrier.onStatus((status, detail) => {
  useAppStore.getState().setConnection(status, detail);
  // Pushes sent while we were away are gone: ask for the whole picture on every (re)connect.
  if (status === 'connected') void actions.refresh();
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <ApiContext.Provider value={api}>
      <ActionsContext.Provider value={actions}>
        <App />
      </ActionsContext.Provider>
    </ApiContext.Provider>
  </StrictMode>,
);
