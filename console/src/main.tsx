import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Route, Routes } from 'react-router';
import { ApiError } from './api/client';
import { CustomerApp } from './customer/CustomerApp';
import { Loading } from './ui/kit';
import './styles.css';

// The staff console is its own chunk: a customer's first screen never loads it.
const StaffApp = lazy(() => import('./staff/StaffApp'));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // an answer of the API (401, 404, 503) is final; only a lost connection is tried again
      retry: (count, error) => error instanceof ApiError && error.status === 0 && count < 2,
      refetchOnWindowFocus: false,
      staleTime: 5_000,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes>
          <Route
            path="/backoffice/*"
            element={
              <Suspense fallback={<Loading />}>
                <StaffApp />
              </Suspense>
            }
          />
          <Route path="/*" element={<CustomerApp />} />
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
