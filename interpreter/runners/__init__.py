"""Runners: play a match, run rule scenarios, simulate many matches."""
