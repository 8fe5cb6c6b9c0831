"""Operator metrics: the /metrics page and the store gauges computed when it is scraped."""
