import { createBrowserRouter } from 'react-router-dom';
import { routes } from './routes';

/** History-mode router of the app. */
export const router = createBrowserRouter(routes);
