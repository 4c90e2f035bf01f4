import { useQuery } from '@tanstack/react-query';
import { api, get } from '../../api/client';
import { keys } from '../../api/keys';
import { Select } from '../../ui/kit';

// What the resource screens share: where a resource may go, its sizes, the VMs it may take.

export function useLocations() {
  return useQuery({ queryKey: keys.locations, queryFn: () => get(() => api.GET('/api/lookup/locations')), staleTime: 600_000, select: (l) => l.filter((x) => x.is_active) });
}

export function LocationSelect({ value, onChange, name = 'location_id' }: { value?: string; onChange?: (v: string) => void; name?: string }) {
  const locations = useLocations();
  return (
    <Select
      label="Location"
      name={name}
      required
      {...(value !== undefined ? { value } : {})}
      onChange={(e) => onChange?.(e.target.value)}
      placeholder="Choose a location"
      options={(locations.data ?? []).map((l) => ({ value: l.id, label: `${l.name} (${l.code})` }))}
    />
  );
}

/** The VMs a picker may offer (not Deleting or Deleted), up to the API's largest page. */
export function useVmChoices() {
  return useQuery({
    queryKey: keys.vms.choices,
    queryFn: () => get(() => api.GET('/api/compute/vm', { params: { query: { page: 1, limit: 100 } } })),
    select: (vms) => vms.filter((v) => v.status !== 'Deleting' && v.status !== 'Deleted'),
  });
}

/** The sizes of a location and which of them a load balancer can send traffic to. */
export function useCatalog(location: string | number | undefined) {
  return useQuery({
    queryKey: keys.catalog(location),
    queryFn: () => get(() => api.GET('/api/compute/tiers', { params: { query: { location_id: Number(location) } } })),
    enabled: !!location,
  });
}
