pragma solidity ^0.8.0;

contract Claims {
    uint256[] public pending;
    uint256[] public prices;

    function settle() external {
        _clear(pending); // expect: array-by-reference
        _clearStored(pending);
        uint256 t = _sum(prices);
        prices = _scaled(prices, t);
    }

    function _clear(uint256[] memory list) internal pure {
        for (uint256 i = 0; i < list.length; i++) {
            list[i] = 0;
        }
    }

    function _clearStored(uint256[] storage list) internal {
        for (uint256 i = 0; i < list.length; i++) {
            list[i] = 0;
        }
    }

    function _sum(uint256[] memory list) internal pure returns (uint256 s) {
        for (uint256 i = 0; i < list.length; i++) s += list[i];
    }

    function _scaled(uint256[] memory list, uint256 d) internal pure returns (uint256[] memory) {
        for (uint256 i = 0; i < list.length; i++) list[i] = list[i] / d;
        return list;
    }
}
