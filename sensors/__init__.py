"""Dagster sensors: where pending work in the graph enters the platform."""
