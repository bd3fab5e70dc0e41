"""Reference exchange rates (ECB): lookups for conversions and GET /fx/rates, and the daily fetch."""
