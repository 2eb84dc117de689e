pragma solidity ^0.5.0;
pragma experimental ABIEncoderV2;

contract Board {
    struct Order {
        address maker;
        uint256 amount;
    }

    uint256[2][3] internal grid = [[1, 2], [3, 4], [5, 6]];
    Order[] internal orders;
    uint256[] internal flat;

    event Snapshot(uint256[2][3] grid);

    function packed() public view returns (bytes memory) {
        return abi.encode(grid); // expect: abiencoderv2-array
    }

    function snapshot() public {
        emit Snapshot(grid); // expect: abiencoderv2-array
    }

    function allOrders() external view returns (Order[] memory) {
        return orders; // expect: abiencoderv2-array
    }

    function copied() public view returns (bytes memory) {
        uint256[2][3] memory g = grid;
        return abi.encode(g);
    }

    function values() public view returns (uint256[] memory) {
        return flat;
    }

    function first() public view returns (uint256) {
        return grid[0][0];
    }

    function place(uint256 amount) public {
        orders.push(Order(msg.sender, amount));
        flat.push(amount);
    }
}
