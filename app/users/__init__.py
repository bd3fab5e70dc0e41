"""users"""
